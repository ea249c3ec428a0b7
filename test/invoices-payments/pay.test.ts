import { chargePayment } from '../../services/payments/charge';
import { requestTag } from '../../services/payments/charge-keys';
import { createOperatorApiKey } from '../../scripts/operator/accounts';
import { usePlatform, type Platform } from '../support/platform';
import { eventsOf, eventTypesOf, merchant, providerChargesOf } from './fixtures';

const platform = usePlatform();
let m: ReturnType<typeof merchant>;

beforeAll(async () => {
  m = merchant(platform);
});

const pay = (body: Record<string, unknown>, options?: Parameters<Platform['call']>[2]) => platform.call('/v2/invoices/pay', body, options);
const DAY = 24 * 60 * 60 * 1000;

describe('invoices/pay across the test cards', () => {
  const cases: Array<[string, { status: string; provider?: string; decline_code?: string; retryable: boolean; invoice: string; sandboxRows: number }]> = [
    ['4242424242424242', { status: 'SUCCEEDED', provider: 'sandbox-alpha', retryable: false, invoice: 'PAID', sandboxRows: 1 }],
    ['4000000000003220', { status: 'SUCCEEDED', provider: 'sandbox-beta', retryable: false, invoice: 'PAID', sandboxRows: 2 }],
    ['4000000000000077', { status: 'SUCCEEDED', provider: 'sandbox-beta', retryable: false, invoice: 'PAID', sandboxRows: 1 }],
    ['4000000000000002', { status: 'DECLINED', provider: 'sandbox-alpha', decline_code: 'do_not_honor', retryable: false, invoice: 'OPEN', sandboxRows: 1 }],
    ['4000000000009995', { status: 'DECLINED', decline_code: 'insufficient_funds', retryable: true, invoice: 'OPEN', sandboxRows: 2 }],
    ['4000000000000119', { status: 'FAILED', decline_code: 'providers_unavailable', retryable: true, invoice: 'OPEN', sandboxRows: 0 }],
  ];

  it.each(cases)('card %s', async (number, expected) => {
    const customerId = await m.customer();
    const instrumentId = await m.card(customerId, number);
    const invoice = await m.openInvoice(customerId);
    const res = await pay({ id: invoice.id, payment_instrument_id: instrumentId });
    expect(res.status).toBe(200);
    const { invoice: after, payment } = res.body;
    expect(payment).toEqual({
      id: expect.stringMatching(/^pay_/),
      status: expected.status,
      amount: 10_000,
      currency: 'EUR',
      retryable: expected.retryable,
      payment_instrument_id: instrumentId,
      ...(expected.provider ? { provider: expected.provider } : {}),
      ...(expected.decline_code ? { decline_code: expected.decline_code, decline_message: expect.any(String) } : {}),
    });
    expect(after.status).toBe(expected.invoice);
    expect(after.amount_due).toBe(expected.invoice === 'PAID' ? 0 : 10_000);
    expect((await m.ok('invoices/get', { id: invoice.id })).status).toBe(expected.invoice);
    expect(await providerChargesOf(platform, invoice.id)).toHaveLength(expected.sandboxRows);

    const events = (await eventsOf(platform, invoice.id)).filter((e) => e.eventType !== 'INVOICE_CREATED' && e.eventType !== 'INVOICE_FINALIZED');
    expect(events.map((e) => e.eventType)).toEqual([expected.invoice === 'PAID' ? 'INVOICE_PAID' : 'INVOICE_PAYMENT_FAILED']);
    expect(events[0]!.data).toEqual({ invoice: after, payment });
    expect((await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).paymentInProgressId).toBeNull();
  });

  it('a declined invoice can be paid again with another card', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId);
    const declined = await pay({ id: invoice.id, payment_instrument_id: await m.card(customerId, '4000000000009995') });
    expect(declined.body.payment.status).toBe('DECLINED');
    const paid = await pay({ id: invoice.id, payment_instrument_id: await m.card(customerId, '5555555555554444') });
    expect(paid.body.invoice).toMatchObject({ status: 'PAID', amount_due: 0, paid_at: expect.any(String) });
    expect(await eventTypesOf(platform, invoice.id)).toEqual(['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_PAYMENT_FAILED', 'INVOICE_PAID']);
  });
});

describe('invoices/pay refusals (422)', () => {
  async function expect422(body: Record<string, unknown>, code: string, options?: Parameters<Platform['call']>[2]) {
    const res = await pay(body, options);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 422, code });
    return res.body;
  }

  it('INCOMPATIBLE_STATUS for a draft, a paid and a voided invoice', async () => {
    const customerId = await m.customer();
    const good = await m.card(customerId, '4242424242424242');
    const draft = await m.ok('invoices/create', { customer_id: customerId, currency: 'EUR', line_items: [{ amount: 100, description: 'One', quantity: 1 }] });
    expect((await expect422({ id: draft.id, payment_instrument_id: good }, 'INCOMPATIBLE_STATUS')).context).toEqual({
      status: 'DRAFT',
      allowed_statuses: ['OPEN', 'DUNNING', 'UNPAID'],
    });
    const paid = await m.openInvoice(customerId);
    expect((await pay({ id: paid.id, payment_instrument_id: good })).status).toBe(200);
    await expect422({ id: paid.id, payment_instrument_id: good }, 'INCOMPATIBLE_STATUS');
    const voided = await m.openInvoice(customerId);
    await m.ok('invoices/void', { id: voided.id });
    await expect422({ id: voided.id, payment_instrument_id: good }, 'INCOMPATIBLE_STATUS');
    expect(await providerChargesOf(platform, voided.id)).toHaveLength(0);
  });

  it('accepts a late payment of an UNPAID invoice', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId);
    await platform.db.invoice.update({ where: { id: invoice.id }, data: { status: 'UNPAID' } });
    const res = await pay({ id: invoice.id, payment_instrument_id: await m.card(customerId, '4242424242424242') });
    expect(res.body.invoice.status).toBe('PAID');
  });

  it('PAYMENT_INSTRUMENT_NOT_FOUND: unknown, another customer’s, another channel’s', async () => {
    const customerId = await m.customer(platform.channelIds[0]);
    const invoice = await m.openInvoice(customerId);
    await expect422({ id: invoice.id, payment_instrument_id: 'pi_01unknown' }, 'PAYMENT_INSTRUMENT_NOT_FOUND');
    const other = await m.card(await m.customer(platform.channelIds[0]), '4242424242424242');
    expect((await expect422({ id: invoice.id, payment_instrument_id: other }, 'PAYMENT_INSTRUMENT_NOT_FOUND')).context).toEqual({ payment_instrument_id: other });
    const elsewhere = await m.card(await m.customer(platform.channelIds[1]), '4242424242424242');
    const bound = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'one channel', channelIds: [platform.channelIds[0]] });
    await expect422({ id: invoice.id, payment_instrument_id: elsewhere }, 'PAYMENT_INSTRUMENT_NOT_FOUND', { secret: bound.secret });
    expect(await platform.db.payment.count({ where: { invoiceId: invoice.id } })).toBe(0);
  });

  it('PAYMENT_INSTRUMENT_NOT_ACTIVE: a revoked card', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId);
    const instrumentId = await m.card(customerId, '4242424242424242');
    await m.ok('payment-instruments/revoke', { id: instrumentId });
    expect((await expect422({ id: invoice.id, payment_instrument_id: instrumentId }, 'PAYMENT_INSTRUMENT_NOT_ACTIVE')).context).toEqual({
      payment_instrument_id: instrumentId,
      status: 'REVOKED',
    });
  });

  it('INVOICE_OVERDUE: a SEND_INVOICE invoice more than 30 days past due_at; automatic ones are never overdue', async () => {
    const customerId = await m.customer();
    const instrumentId = await m.card(customerId, '4242424242424242');
    const late = await m.openInvoice(customerId, { collection_method: 'SEND_INVOICE' });
    const dueAt = new Date(Date.now() - 31 * DAY);
    await platform.db.invoice.update({ where: { id: late.id }, data: { dueAt } });
    expect((await expect422({ id: late.id, payment_instrument_id: instrumentId }, 'INVOICE_OVERDUE')).context).toEqual({
      due_at: expect.any(String),
      payable_until: expect.any(String),
    });

    const inGrace = await m.openInvoice(customerId, { collection_method: 'SEND_INVOICE' });
    await platform.db.invoice.update({ where: { id: inGrace.id }, data: { dueAt: new Date(Date.now() - 29 * DAY) } });
    expect((await pay({ id: inGrace.id, payment_instrument_id: instrumentId })).body.invoice.status).toBe('PAID');

    const automatic = await m.openInvoice(customerId, { collection_method: 'SEND_INVOICE' });
    await platform.db.invoice.update({ where: { id: automatic.id }, data: { dueAt, collectionMethod: 'CHARGE_AUTOMATICALLY', status: 'UNPAID' } });
    expect((await pay({ id: automatic.id, payment_instrument_id: instrumentId })).body.invoice.status).toBe('PAID');
  });

  it('a SEND_INVOICE invoice in DUNNING (a subscription\'s grace after its due date) is still payable more than 30 days past due_at', async () => {
    const customerId = await m.customer();
    const instrumentId = await m.card(customerId, '4242424242424242');
    const inDunning = await m.openInvoice(customerId, { collection_method: 'SEND_INVOICE' });
    await platform.db.invoice.update({ where: { id: inDunning.id }, data: { dueAt: new Date(Date.now() - 31 * DAY), status: 'DUNNING' } });
    expect((await pay({ id: inDunning.id, payment_instrument_id: instrumentId })).body.invoice.status).toBe('PAID');
  });

  it('OPEN_PAYMENT_LIMIT_REACHED while another charge holds the invoice', async () => {
    const customerId = await m.customer();
    const instrumentId = await m.card(customerId, '4242424242424242');
    const invoice = await m.openInvoice(customerId);
    await platform.db.invoice.update({ where: { id: invoice.id }, data: { paymentInProgressId: `${invoice.id}/collection/0` } });
    expect((await expect422({ id: invoice.id, payment_instrument_id: instrumentId }, 'OPEN_PAYMENT_LIMIT_REACHED')).context).toEqual({ invoice_id: invoice.id });
    expect(await platform.db.payment.count({ where: { invoiceId: invoice.id } })).toBe(0);
  });

  it('concurrent pays: exactly one charges, the others are refused', async () => {
    const customerId = await m.customer();
    const instrumentId = await m.card(customerId, '4000000000000077');
    const invoice = await m.openInvoice(customerId);
    const answers = await Promise.all(Array.from({ length: 8 }, () => pay({ id: invoice.id, payment_instrument_id: instrumentId })));
    const ok = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 422).map((a) => a.body.code);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.body.invoice.status).toBe('PAID');
    expect(refused).toHaveLength(7);
    expect(refused).toContain('OPEN_PAYMENT_LIMIT_REACHED');
    expect(new Set(refused)).toEqual(new Set(refused.filter((c) => c === 'OPEN_PAYMENT_LIMIT_REACHED' || c === 'INCOMPATIBLE_STATUS')));
    expect(await platform.db.payment.count({ where: { invoiceId: invoice.id } })).toBe(1);
    expect((await providerChargesOf(platform, invoice.id)).filter((c) => c.outcome === 'APPROVED')).toHaveLength(1);
    expect(await eventTypesOf(platform, invoice.id)).toEqual(['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_PAID']);
  });

  it('a refusal of the charge path is a 422 with its code, never a 500', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId);
    const claimedAt = new Date(Date.now() - 10 * 60 * 1000);
    const { key, instrumentId } = await m.abandonedPay({ claimedAt, charged: false, of: { invoice, customerId } });
    // A payment under the abandoned claim's key for another amount: finishing that claim first,
    // the charge path refuses to reuse the key (IDEMPOTENCY_KEY_REUSED).
    await chargePayment(
      { db: platform.db },
      { accountId: platform.accountId, customerId, instrumentId, amount: 4_000, currency: 'EUR', idempotencyKey: key, invoiceId: invoice.id },
    );
    await expect422({ id: invoice.id, payment_instrument_id: instrumentId }, 'IDEMPOTENCY_KEY_REUSED');
    const after = await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    expect({ status: after.status, amountPaid: after.amountPaid }).toEqual({ status: 'OPEN', amountPaid: 0 });
  });
});

describe('invoices/pay idempotency and crash safety', () => {
  it('replays the same Idempotency-Key without charging again', async () => {
    const customerId = await m.customer();
    const instrumentId = await m.card(customerId, '4000000000009995');
    const invoice = await m.openInvoice(customerId);
    const headers = { 'idempotency-key': 'pay-once' };
    const first = await pay({ id: invoice.id, payment_instrument_id: instrumentId }, { headers });
    const again = await pay({ id: invoice.id, payment_instrument_id: instrumentId }, { headers });
    expect(first.body.payment.status).toBe('DECLINED');
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await platform.db.payment.count({ where: { invoiceId: invoice.id } })).toBe(1);
    expect(await eventTypesOf(platform, invoice.id)).toEqual(['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_PAYMENT_FAILED']);
  });

  const chargedButNotSettled = (claimedAt: Date, request?: string) => m.abandonedPay({ claimedAt, request, charged: true });

  it('a retry under the same Idempotency-Key finishes the cut-off charge instead of charging again', async () => {
    const apiKeyId = (await platform.db.apiKey.findFirstOrThrow({ where: { accountId: platform.accountId, name: 'root' } })).id;
    const { invoice, instrumentId, paymentId } = await chargedButNotSettled(new Date(), requestTag(apiKeyId, 'cut-off'));
    const retry = await pay({ id: invoice.id, payment_instrument_id: instrumentId }, { headers: { 'idempotency-key': 'cut-off' } });
    expect(retry.status).toBe(200);
    expect(retry.body.payment).toMatchObject({ id: paymentId, status: 'SUCCEEDED' });
    expect(retry.body.invoice.status).toBe('PAID');
    expect(await providerChargesOf(platform, invoice.id)).toHaveLength(1);
  });

  it('a fresh claim of another request blocks; past its lease any pay finishes it first', async () => {
    const fresh = await chargedButNotSettled(new Date());
    const blocked = await pay({ id: fresh.invoice.id, payment_instrument_id: fresh.instrumentId });
    expect(blocked.body.code).toBe('OPEN_PAYMENT_LIMIT_REACHED');

    const { invoice, instrumentId, paymentId } = await chargedButNotSettled(new Date(Date.now() - 6 * 60 * 1000));
    const late = await pay({ id: invoice.id, payment_instrument_id: instrumentId });
    // The abandoned charge paid the invoice, so this request has nothing left to pay.
    expect({ status: late.status, code: late.body.code }).toEqual({ status: 422, code: 'INCOMPATIBLE_STATUS' });
    const after = await m.ok('invoices/get', { id: invoice.id });
    expect(after).toMatchObject({ status: 'PAID', amount_due: 0 });
    const paidEvent = (await eventsOf(platform, invoice.id)).find((e) => e.eventType === 'INVOICE_PAID');
    expect((paidEvent!.data as { payment: { id: string } }).payment.id).toBe(paymentId);
    expect(await providerChargesOf(platform, invoice.id)).toHaveLength(1);
  });
});
