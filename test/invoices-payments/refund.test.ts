import { createOperatorApiKey } from '../../scripts/operator/accounts';
import { usePlatform, type Platform } from '../support/platform';
import { abandonedRefund, eventsOf, merchant } from './fixtures';

const platform = usePlatform();
let m: ReturnType<typeof merchant>;

beforeAll(async () => {
  m = merchant(platform);
});

const refund = (body: Record<string, unknown>, options?: Parameters<Platform['call']>[2]) => platform.call('/v2/invoices/refund', body, options);

/** A PAID invoice of 10,000 and the sandbox charge behind it (at sandbox-beta for the SOFT_DECLINE_ON_ALPHA card). */
async function paidInvoice(number = '4242424242424242') {
  const customerId = await m.customer();
  const invoice = await m.openInvoice(customerId);
  const paid = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: await m.card(customerId, number) });
  const payment = await platform.db.payment.findUniqueOrThrow({ where: { id: paid.payment.id } });
  return { invoice: paid.invoice, payment };
}

const providerRefunds = (chargeId: string) => platform.db.sandboxProviderRefund.findMany({ where: { chargeId }, orderBy: { id: 'asc' } });

describe('invoices/refund', () => {
  it('refunds everything by default, at the provider that charged, with InvoicePaymentRefunded', async () => {
    const { invoice, payment } = await paidInvoice('4000000000003220');
    const res = await refund({ id: invoice.id, reason: 'Duplicate order' });
    expect(res.status).toBe(200);
    expect(res.body.refund).toEqual({
      id: expect.stringMatching(/^rfnd_/),
      invoice_id: invoice.id,
      payment_id: payment.id,
      amount: 10_000,
      currency: 'EUR',
      reason: 'Duplicate order',
      status: 'SUCCEEDED',
      provider: 'sandbox-beta',
      created_at: expect.any(String),
    });
    expect(res.body.amount_refunded).toBe(10_000);
    // Refunds do not reopen the invoice: it stays PAID with nothing due.
    expect(res.body.invoice).toMatchObject({ status: 'PAID', amount_due: 0 });

    const books = await providerRefunds(payment.providerChargeId!);
    expect(books).toEqual([expect.objectContaining({ provider: 'sandbox-beta', amount: 10_000 })]);
    // The provider keeps its fee.
    const charge = await platform.db.sandboxProviderCharge.findUniqueOrThrow({ where: { id: payment.providerChargeId! } });
    expect(charge.fee).toBeGreaterThan(0);
    expect((await platform.db.refund.findUniqueOrThrow({ where: { id: res.body.refund.id } })).providerRefundId).toBe(books[0]!.id);

    const events = (await eventsOf(platform, invoice.id)).filter((e) => e.eventType === 'INVOICE_PAYMENT_REFUNDED');
    expect(events.map((e) => e.data)).toEqual([{ invoice: res.body.invoice, refund: res.body.refund, amount_refunded: 10_000 }]);

    const again = await refund({ id: invoice.id });
    expect({ status: again.status, code: again.body.code, context: again.body.context }).toEqual({
      status: 422,
      code: 'REFUND_EXCEEDS_PAYMENT',
      context: { amount: 0, refundable: 0, payment_id: payment.id, amount_paid: 10_000, given_back: 10_000 },
    });
  });

  it('partial refunds up to the payment, then refuses the excess', async () => {
    const { invoice, payment } = await paidInvoice();
    expect((await refund({ id: invoice.id, amount: 2_500 })).body.amount_refunded).toBe(2_500);
    const over = await refund({ id: invoice.id, amount: 7_501 });
    expect({ status: over.status, code: over.body.code, refundable: over.body.context.refundable }).toEqual({
      status: 422,
      code: 'REFUND_EXCEEDS_PAYMENT',
      refundable: 7_500,
    });
    const rest = await refund({ id: invoice.id });
    expect(rest.body.refund.amount).toBe(7_500);
    expect(rest.body.amount_refunded).toBe(10_000);
    expect((await refund({ id: invoice.id, amount: 1 })).body.code).toBe('REFUND_EXCEEDS_PAYMENT');
    expect((await providerRefunds(payment.providerChargeId!)).map((r) => r.amount)).toEqual([2_500, 7_500]);
    expect((await platform.db.payment.findUniqueOrThrow({ where: { id: payment.id } })).refundedAmount).toBe(10_000);
    expect((await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).amountRefunded).toBe(10_000);
  });

  it('concurrent refunds never exceed the payment', async () => {
    const { invoice, payment } = await paidInvoice();
    const answers = await Promise.all(Array.from({ length: 6 }, () => refund({ id: invoice.id, amount: 4_000 })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
    expect(answers.filter((a) => a.status === 422).map((a) => a.body.code)).toEqual(Array(4).fill('REFUND_EXCEEDS_PAYMENT'));
    expect((await providerRefunds(payment.providerChargeId!)).map((r) => r.amount)).toEqual([4_000, 4_000]);
  });

  it('INCOMPATIBLE_STATUS for an invoice that is not PAID', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId);
    const res = await refund({ id: invoice.id });
    expect({ status: res.status, code: res.body.code, context: res.body.context }).toEqual({
      status: 422,
      code: 'INCOMPATIBLE_STATUS',
      context: { status: 'OPEN', allowed_statuses: ['PAID'] },
    });
  });

  it('replays the same Idempotency-Key: one refund at the provider', async () => {
    const { invoice, payment } = await paidInvoice();
    const headers = { 'idempotency-key': 'refund-once' };
    const first = await refund({ id: invoice.id, amount: 1_000 }, { headers });
    const again = await refund({ id: invoice.id, amount: 1_000 }, { headers });
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await providerRefunds(payment.providerChargeId!)).toHaveLength(1);
  });

  it('finishes a refund whose request died after recording it, without refunding twice', async () => {
    const { invoice, payment } = await paidInvoice();
    await abandonedRefund(platform, invoice, payment, 'rfnd_abandoned');

    const next = await refund({ id: invoice.id });
    expect(next.body.refund.amount).toBe(7_000);
    expect((await platform.db.refund.findUniqueOrThrow({ where: { id: 'rfnd_abandoned' } })).status).toBe('SUCCEEDED');
    expect((await providerRefunds(payment.providerChargeId!)).map((r) => r.amount).sort()).toEqual([3_000, 7_000]);
    const refunded = (await eventsOf(platform, invoice.id)).filter((e) => e.eventType === 'INVOICE_PAYMENT_REFUNDED');
    expect(refunded).toHaveLength(2);
  });

  it('a key that cannot see the invoice gets 404 and finishes none of its abandoned refunds', async () => {
    const { invoice, payment } = await paidInvoice();
    expect(invoice.channel_id).toBe(platform.channelIds[0]);
    await abandonedRefund(platform, invoice, payment, 'rfnd_other_channel');
    const bound = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'channel two', channelIds: [platform.channelIds[1]] });

    const res = await refund({ id: invoice.id }, { secret: bound.secret });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    expect((await platform.db.refund.findUniqueOrThrow({ where: { id: 'rfnd_other_channel' } })).status).toBe('PENDING');
    expect(await providerRefunds(payment.providerChargeId!)).toHaveLength(0);
    expect((await eventsOf(platform, invoice.id)).filter((e) => e.eventType === 'INVOICE_PAYMENT_REFUNDED')).toHaveLength(0);
  });
});
