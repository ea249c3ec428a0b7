import { createBillingClient, type BillingClient } from '../../client';
import { usePlatform } from '../support/platform';

const platform = usePlatform();
let client: BillingClient;

beforeAll(() => {
  client = createBillingClient({ baseUrl: platform.baseUrl, apiKey: platform.rootSecret });
});

/** The typed answer of a call that must succeed; a refusal fails the test with its envelope. */
function ok<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

describe('the generated client against the running API', () => {
  it('creates a customer, tokenizes a card, creates, finalizes and pays an invoice', async () => {
    const customer = ok(await client.POST('/v2/customers/create', { body: { type: 'INDIVIDUAL', email: 'client@example.com' } }));
    expect(customer.id).toMatch(/^cust_/);

    const instrument = ok(
      await client.POST('/v2/payment-instruments/tokenize', {
        body: { customer_id: customer.id, card: { number: '4242424242424242', exp_month: 12, exp_year: new Date().getUTCFullYear() + 3 } },
      }),
    );

    const draft = ok(
      await client.POST('/v2/invoices/create', {
        body: { customer_id: customer.id, currency: 'EUR', line_items: [{ amount: 2_500, description: 'Typed', quantity: 2 }] },
        params: { header: { 'Idempotency-Key': `client-flow-${customer.id}` } },
      }),
    );
    expect(draft).toMatchObject({ status: 'DRAFT', total_amount: 5_000 });

    const open = ok(await client.POST('/v2/invoices/finalize', { body: { id: draft.id } }));
    expect(open.status).toBe('OPEN');

    const paid = ok(await client.POST('/v2/invoices/pay', { body: { id: draft.id, payment_instrument_id: instrument.id } }));
    expect(paid.payment).toMatchObject({ status: 'SUCCEEDED', amount: 5_000, currency: 'EUR' });
    expect(paid.invoice).toMatchObject({ id: draft.id, status: 'PAID', amount_due: 0 });

    const fetched = ok(await client.POST('/v2/invoices/get', { body: { id: draft.id } }));
    expect(fetched.status).toBe('PAID');
  });

  it('returns the error envelope typed as the error of the operation', async () => {
    const refused = await client.POST('/v2/invoices/get', { body: { id: 'inv_00000000000000000000000000' } });
    expect(refused.response.status).toBe(404);
    expect(refused.error).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('sends no key when none is given, and the API answers 401', async () => {
    const anonymous = createBillingClient({ baseUrl: platform.baseUrl });
    const refused = await anonymous.POST('/v2/customers/list', { body: {} });
    expect(refused.response.status).toBe(401);
    expect(refused.error).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
