import { randomUUID } from 'node:crypto';

/**
 * Records created before `npm run test:schemathesis` runs, so operations that address an existing
 * record (customers/update, invoices/finalize, webhooks/rotate-key, …) get past 404 and their
 * bodies are checked (docs/testing.md, "API contract checks"). contract_hooks.py puts these ids
 * into positive requests; an id a successful request used up (a deleted invoice, a revoked
 * instrument) it hands out no more, hence several of each for the operations that use them up.
 */
export interface Fixtures {
  /** Ids by the prefix that names their kind (`cust_`, `inv_`, …), for any operation. */
  byPrefix: Record<string, string[]>;
  /** Ids for one operation's body field, where the field's prefix says too little. */
  byOperation: Record<string, Record<string, string[]>>;
}

/** How many records of a kind some operation uses up per run: one for each of schemathesis' three phases, and spares. */
const SPARES = 6;

type Call = (operation: string, body: Record<string, unknown>) => Promise<Record<string, any>>;

function caller(baseUrl: string, secret: string): Call {
  return async (operation, body) => {
    const response = await fetch(`${baseUrl}/v2/${operation}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`fixture ${operation} answered ${response.status}: ${text}`);
    return JSON.parse(text);
  };
}

const times = <T>(count: number, make: (index: number) => Promise<T>): Promise<T[]> => Promise.all(Array.from({ length: count }, (_, index) => make(index)));

export async function createFixtures(baseUrl: string, secret: string, channelId: string): Promise<Fixtures> {
  const call = caller(baseUrl, secret);
  const ids = (records: Array<Record<string, any>>) => records.map((record) => record.id as string);
  const nextYear = new Date().getUTCFullYear() + 1;

  const customer = await call('customers/create', { type: 'INDIVIDUAL', email: 'schemathesis@example.com', first_name: 'Fixture' });
  const card = () => call('payment-instruments/tokenize', { customer_id: customer.id, card: { number: '4242424242424242', exp_month: 12, exp_year: nextYear, cardholder_name: 'Fixture' } });
  const [instrument, ...revocable] = await times(SPARES + 1, card);
  // CHARGE_AUTOMATICALLY without payment_instrument_id takes the customer's default (422 PAYMENT_INSTRUMENT_REQUIRED without one).
  await call('customers/update', { id: customer.id, configuration: { default_payment_instrument_id: instrument!.id } });
  const drafts = () => times(SPARES, () => call('invoices/create', { customer_id: customer.id, currency: 'USD', line_items: [{ description: 'Fixture', amount: 1000, quantity: 1 }] }));
  const opened = async () => Promise.all((await drafts()).map((invoice) => call('invoices/finalize', { id: invoice.id })));
  const paid = async () => Promise.all((await opened()).map(async (invoice) => (await call('invoices/pay', { id: invoice.id, payment_instrument_id: instrument!.id })).invoice));

  const creditNotes = async () => Promise.all((await opened()).map((invoice) => call('credit-notes/create', { invoice_id: invoice.id, reason: 'OTHER', amount: 100 })));

  const product = await call('products/create', { name: 'Fixture' });
  const price = await call('product-prices/create', { product_id: product.id, currency: 'USD', amount: 1000, billing_type: 'RECURRING', billing_period_config: { unit: 'MONTH', value: 1 } });
  const subscribed = () => times(SPARES, () => call('subscriptions/create', { customer_id: customer.id, line_items: [{ product_price_id: price.id, quantity: 1 }] }));
  const cancelling = async () => Promise.all((await subscribed()).map((subscription) => call('subscriptions/cancel', { id: subscription.id, mode: 'PERIOD_END' })));

  const endpoints = () => times(SPARES, () => call('webhooks/create', { url: `https://fixture-${randomUUID()}.example.com/webhooks` }));
  const list = await call('antifraud-lists/create', { name: 'Fixture', field: 'CARDHOLDER' });
  const items = await times(SPARES, (index) => call('antifraud-lists/create-item', { list_id: list.id, field_value: `Fixture Holder ${index}` }));
  const keys = await times(SPARES, (index) => call('api-keys/create', { name: `Fixture ${index}`, permissions: ['customers:get'] }));
  const routing = await call('routing-configs/create', { name: 'Fixture', channel_id: channelId });
  const versions = await times(SPARES, () => call('routing-configs/create-version', { routing_config_id: routing.id, route_tree: { rules: [], default_providers: ['sandbox-beta'] } }));

  return {
    byPrefix: {
      chn_: [channelId],
      cust_: [customer.id],
      pi_: [instrument!.id],
      inv_: ids(await drafts()),
      subs_: ids(await subscribed()),
      whep_: ids(await endpoints()),
      akey_: ids(keys),
      rcfg_: [routing.id],
      rcv_: ids(versions),
      cn_: ids(await creditNotes()),
    },
    byOperation: {
      'antifraud-lists/update': { id: [list.id] },
      'antifraud-lists/get': { id: [list.id] },
      'antifraud-lists/create-item': { list_id: [list.id] },
      'antifraud-lists/list-item': { list_id: [list.id] },
      'antifraud-lists/delete-item': { id: ids(items) },
      'payment-instruments/revoke': { id: ids(revocable) },
      'invoices/delete': { id: ids(await drafts()) },
      'invoices/finalize': { id: ids(await drafts()) },
      'invoices/void': { id: ids(await opened()) },
      'invoices/pay': { id: ids(await opened()) },
      'invoices/refund': { id: ids(await paid()) },
      // OPEN: a credit note on money already paid must split it (refund, balance, out of band), a sum no schema states.
      'credit-notes/create': { invoice_id: ids(await opened()) },
      'credit-notes/void': { id: ids(await creditNotes()) },
      'credit-notes/preview': { invoice_id: ids(await opened()) },
      'subscriptions/cancel': { id: ids(await subscribed()) },
      'subscriptions/delete-cancellation': { id: ids(await cancelling()) },
      'subscriptions/create': { 'line_items[].product_price_id': [price.id] },
      'webhooks/delete': { id: ids(await endpoints()) },
      'product-prices/get': { id: [price.id] },
      'products/get': { id: [product.id] },
    },
  };
}
