import { createChargeActivities } from '../../activities/charge';
import { newPayChargeKey } from '../../services/payments/charge-keys';
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

  /**
   * What an invoices/pay whose process died leaves: its claim on an invoice of 10,000 (a new
   * SEND_INVOICE one unless `of` names another and its customer), and with `charged` the payment
   * the provider already made; the invoice not yet marked.
   */
  async function abandonedPay(options: { claimedAt: Date; request?: string; charged: boolean; number?: string; of?: { invoice: { id: string }; customerId: string } }) {
    const customerId = options.of?.customerId ?? (await customer());
    const instrumentId = await card(customerId, options.number ?? '4242424242424242');
    const invoice = options.of?.invoice ?? (await openInvoice(customerId));
    const key = newPayChargeKey(invoice.id, instrumentId, options.claimedAt, options.request);
    await platform.db.invoice.update({ where: { id: invoice.id }, data: { paymentInProgressId: key } });
    if (!options.charged) return { invoice, instrumentId, key, paymentId: undefined };
    const charged = await createChargeActivities({ db: platform.db }).chargePayment({
      accountId: platform.accountId,
      customerId,
      instrumentId,
      amount: 10_000,
      currency: 'EUR',
      idempotencyKey: key,
      invoiceId: invoice.id,
    });
    if (charged.status !== 'SUCCEEDED') throw new Error(`The provider did not charge: ${charged.status}.`);
    return { invoice, instrumentId, key, paymentId: charged.paymentId };
  }

  return { ok, customer, card, setDefaultInstrument, openInvoice, abandonedPay };
}

/** What a refund request that died after its first transaction leaves: the refund recorded and reserved, the provider not yet asked. */
export async function abandonedRefund(platform: Platform, invoice: { id: string }, payment: { id: string; provider: string | null }, id: string, amount = 3_000) {
  const at = new Date(Date.now() - 2 * 60 * 1000);
  await platform.db.refund.create({
    data: {
      id,
      accountId: platform.accountId,
      invoiceId: invoice.id,
      paymentId: payment.id,
      amount,
      status: 'PENDING',
      provider: payment.provider!,
      idempotencyKey: `${invoice.id}/refund/${id}`,
      createdAt: at,
      updatedAt: at,
    },
  });
  await platform.db.payment.update({ where: { id: payment.id }, data: { refundedAmount: { increment: amount } } });
  await platform.db.invoice.update({ where: { id: invoice.id }, data: { amountRefunded: { increment: amount } } });
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
