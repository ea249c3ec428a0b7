import type { Platform } from '../support/platform';

/** Merchant steps over the real API, shared by the pay, refund and dunning tests. */
export function merchant(platform: Platform) {
  async function ok(path: string, body: unknown, options?: Parameters<Platform['call']>[2]) {
    const res = await platform.call(`/v2/${path}`, body, options);
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function customer(channelId?: string): Promise<string> {
    return (await ok('customers/create', { type: 'INDIVIDUAL', email: 'payer@example.com', ...(channelId ? { channel_id: channelId } : {}) })).id;
  }

  async function card(customerId: string, number: string): Promise<string> {
    const year = new Date().getUTCFullYear() + 3;
    return (await ok('payment-instruments/tokenize', { customer_id: customerId, card: { number, exp_month: 12, exp_year: year } })).id;
  }

  async function setDefaultInstrument(customerId: string, instrumentId: string) {
    await ok('customers/patch', { id: customerId, configuration: { default_payment_instrument_id: instrumentId } });
  }

  /** A finalized invoice of `amount` (one line, no tax). */
  async function openInvoice(customerId: string, options: { amount?: number; collection_method?: string; discounts?: unknown[]; payment_instrument_id?: string } = {}) {
    const { amount = 10_000, ...rest } = options;
    const draft = await ok('invoices/create', {
      customer_id: customerId,
      currency: 'EUR',
      line_items: [{ amount, description: 'Consulting', quantity: 1 }],
      ...rest,
    });
    return ok('invoices/finalize', { id: draft.id });
  }

  return { ok, customer, card, setDefaultInstrument, openInvoice };
}

/** Invoice events of one invoice, oldest first, by event_type. */
export async function eventsOf(platform: Platform, invoiceId: string) {
  const rows = await platform.db.outboxEvent.findMany({ where: { eventType: { startsWith: 'INVOICE_' } }, orderBy: { id: 'asc' } });
  return rows.filter((row) => (row.data as { invoice?: { id: string } }).invoice?.id === invoiceId);
}

export async function eventTypesOf(platform: Platform, invoiceId: string): Promise<string[]> {
  return (await eventsOf(platform, invoiceId)).map((e) => e.eventType);
}

/** What the sandbox providers hold for the invoice's payments: every provider request that was processed. */
export async function providerChargesOf(platform: Platform, invoiceId: string) {
  const payments = await platform.db.payment.findMany({ where: { invoiceId }, select: { id: true } });
  return platform.db.sandboxProviderCharge.findMany({
    where: { OR: payments.map((p) => ({ idempotencyKey: { startsWith: `${p.id}/` } })) },
    orderBy: { id: 'asc' },
  });
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}.`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
