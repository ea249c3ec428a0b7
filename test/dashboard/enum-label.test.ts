import { enumLabel } from '../../dashboard/src/components/enumLabel';

/** Issue 44, item 7: the dashboard shows the API's enum values as words, never as raw codes. */
describe('enumLabel', () => {
  it('words the documented values, saying what a bare code would not', () => {
    expect(enumLabel('SEND_INVOICE')).toBe('Send invoice');
    expect(enumLabel('PRODUCT_UNSATISFACTORY')).toBe('Product unsatisfactory');
    expect(enumLabel('DUNNING')).toBe('In dunning (retrying payment)');
    expect(enumLabel('TRIALING')).toBe('In trial');
    expect(enumLabel('REQUIRES_ACTION')).toBe('Awaiting the customer’s authentication');
    expect(enumLabel('APPLIED_TO_INVOICE')).toBe('Applied to an invoice');
  });

  it('reads any other code in sentence case', () => {
    expect(enumLabel('PAST_DUE')).toBe('Past due');
    expect(enumLabel('MONTHLY_STATEMENT')).toBe('Monthly statement');
    expect(enumLabel('A__B_')).toBe('A b');
    expect(enumLabel('')).toBe('');
  });
});
