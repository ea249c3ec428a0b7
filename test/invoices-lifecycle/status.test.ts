import { ApiError } from '../../domain/errors';
import {
  canTransition,
  FINAL_STATUSES,
  INVOICE_STATUSES,
  INVOICE_TRANSITIONS,
  nextStatus,
  type InvoiceTransition,
} from '../../domain/invoice-status';

/** The table of docs/invoices.md, written out once more so a change to either is noticed. */
const EXPECTED: Record<InvoiceTransition, [string[], string]> = {
  update: [['DRAFT'], 'DRAFT'],
  finalize: [['DRAFT'], 'OPEN'],
  finalizeZeroTotal: [['DRAFT'], 'PAID'],
  delete: [['DRAFT'], 'deleted'],
  void: [['OPEN', 'DUNNING', 'UNPAID'], 'VOIDED'],
  pay: [['OPEN', 'DUNNING', 'UNPAID'], 'PAID'],
  chargeSucceeded: [['OPEN', 'DUNNING'], 'PAID'],
  chargeFailedRetryable: [['OPEN'], 'DUNNING'],
  chargeFailedFinal: [['OPEN', 'DUNNING'], 'UNPAID'],
  dunningExhausted: [['DUNNING'], 'UNPAID'],
  pastDue: [['OPEN'], 'DUNNING'],
  creditedInFull: [['OPEN', 'DUNNING', 'UNPAID'], 'PAID'],
};

describe('the invoice state machine', () => {
  it.each(Object.keys(INVOICE_TRANSITIONS) as InvoiceTransition[])('%s applies exactly where documented', (transition) => {
    const [from, to] = EXPECTED[transition];
    for (const status of INVOICE_STATUSES) {
      expect([status, canTransition(transition, status)]).toEqual([status, from.includes(status)]);
      if (from.includes(status)) {
        expect(nextStatus(transition, status)).toBe(to);
      } else {
        let thrown: unknown;
        try {
          nextStatus(transition, status);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(ApiError);
        expect(thrown).toMatchObject({ code: 'INCOMPATIBLE_STATUS', context: { status, allowed_statuses: from } });
      }
    }
  });

  it('makes PAID and VOIDED final, and every status reachable from DRAFT', () => {
    expect([...FINAL_STATUSES].sort()).toEqual(['PAID', 'VOIDED']);
    const reached = new Set<string>(['DRAFT']);
    for (let round = 0; round < INVOICE_STATUSES.length; round += 1) {
      for (const rule of Object.values(INVOICE_TRANSITIONS)) {
        if (rule.from.some((status) => reached.has(status))) reached.add(rule.to);
      }
    }
    expect([...reached].sort()).toEqual([...INVOICE_STATUSES, 'deleted'].sort());
  });
});
