import type Stripe from 'stripe';
import type { StripeEmulator } from '../../scripts/stripe/emulator-process';
import { createChargeActivities } from '../../activities/charge';
import { applyPaymentIntentEvent } from '../../services/payments/provider-decisions';
import { usePlatform } from '../support/platform';
import { eventsOf, merchant } from '../invoices-payments/fixtures';
import { connectToLocalstripe, intentsOf, stripeCard } from './stripe-fixtures';

const platform = usePlatform();
let m: ReturnType<typeof merchant>;
let emulator: StripeEmulator;
let stripe: Stripe;

beforeAll(async () => {
  m = merchant(platform);
  ({ emulator, stripe } = await connectToLocalstripe(platform));
});

afterAll(() => emulator?.stop());

async function openInvoiceWithCard(number: string) {
  const customerId = await m.customer();
  const instrumentId = await stripeCard(platform, stripe, customerId, number);
  const invoice = await m.openInvoice(customerId);
  return { customerId, instrumentId, invoice };
}

const eventTypes = async (invoiceId: string) => (await eventsOf(platform, invoiceId)).map((e) => e.eventType);

describe('the Stripe provider against localstripe', () => {
  it('pays an invoice with one PaymentIntent, off-session, under the charge key, our ids in its metadata', async () => {
    const { instrumentId, invoice } = await openInvoiceWithCard('4242424242424242');
    const paid = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: instrumentId });
    expect(paid.invoice).toMatchObject({ status: 'PAID', amount_due: 0 });
    expect(paid.payment).toMatchObject({ status: 'SUCCEEDED', provider: 'stripe', provider_reference: expect.stringMatching(/^pi_/) });

    const payment = await platform.db.payment.findUniqueOrThrow({ where: { id: paid.payment.id } });
    const intents = await intentsOf(stripe, payment.id);
    expect(intents.map((i) => [i.id, i.status, i.amount, i.currency])).toEqual([[payment.providerChargeId, 'succeeded', 10_000, 'eur']]);
    expect(intents[0]!.metadata).toEqual({
      bp_idempotency_key: `${payment.id}/stripe`,
      bp_account_id: platform.accountId,
      bp_payment_id: payment.id,
      bp_invoice_id: invoice.id,
    });
    // The books on our side hold the request under the key it was asked with, written before the
    // call; Stripe's id is the payment's to record.
    const books = await platform.db.stripeRequest.findMany({ where: { idempotencyKey: `${payment.id}/stripe` } });
    expect(books.map((b) => [b.kind, b.amount, b.currency])).toEqual([['CHARGE', 10_000, 'EUR']]);
    expect(await eventTypes(invoice.id)).toContain('INVOICE_PAID');
  });

  it("records a decline with Stripe's code and leaves the invoice payable", async () => {
    const { instrumentId, invoice } = await openInvoiceWithCard('4000000000000341');
    const res = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: instrumentId });
    expect(res.payment).toMatchObject({ status: 'DECLINED', decline_code: 'card_declined', retryable: false, provider: 'stripe' });
    expect(res.invoice.status).toBe('OPEN');
    expect(await eventTypes(invoice.id)).toContain('INVOICE_PAYMENT_FAILED');
  });

  it('waits for the customer on requires_action, and pays the invoice once when they authenticate', async () => {
    const { instrumentId, invoice } = await openInvoiceWithCard('4000002760003184');
    const res = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: instrumentId });
    expect(res.payment).toMatchObject({ status: 'REQUIRES_ACTION', decline_code: 'authentication_required', retryable: true, provider_reference: expect.stringMatching(/^pi_/) });
    // Payable: the guard is released, and the merchant hears that the customer must act.
    expect(res.invoice.status).toBe('OPEN');
    expect((await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).paymentInProgressId).toBeNull();
    expect(await eventTypes(invoice.id)).toEqual(expect.arrayContaining(['INVOICE_PAYMENT_FAILED', 'INVOICE_PAYMENT_ACTION_REQUIRED']));

    // The customer authenticates at Stripe (localstripe's stand-in for the 3-D Secure page).
    const intentId = res.payment.provider_reference as string;
    const intent = await stripe.paymentIntents.retrieve(intentId);
    await fetch(`${emulator.url}/v1/payment_intents/${intentId}/_authenticate?client_secret=${intent.client_secret}&success=true`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_platformkey0001' },
    });
    const succeeded = await stripe.paymentIntents.retrieve(intentId);
    expect(succeeded.status).toBe('succeeded');

    // Stripe's webhook, delivered twice: the invoice is paid once.
    const deps = { db: platform.db, now: () => new Date(), temporal: platform.env.client };
    const first = await applyPaymentIntentEvent(deps, { accountId: platform.accountId, paymentIntent: succeeded });
    const again = await applyPaymentIntentEvent(deps, { accountId: platform.accountId, paymentIntent: succeeded });
    expect(first).toEqual({ applied: true, paymentId: res.payment.id, status: 'SUCCEEDED' });
    expect(again).toMatchObject({ applied: false });
    const after = await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    expect({ status: after.status, amountPaid: after.amountPaid, amountDue: after.amountDue }).toEqual({ status: 'PAID', amountPaid: 10_000, amountDue: 0 });
    expect((await eventTypes(invoice.id)).filter((t) => t === 'INVOICE_PAID')).toHaveLength(1);
    // A late payment_failed for the same PaymentIntent changes nothing.
    expect(await applyPaymentIntentEvent(deps, { accountId: platform.accountId, paymentIntent: { ...succeeded, status: 'requires_payment_method' } })).toMatchObject({ applied: false });
  });

  it("believes a PaymentIntent's metadata only when its id and money agree with the payment's", async () => {
    const { instrumentId, invoice } = await openInvoiceWithCard('4000002760003184');
    const res = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: instrumentId });
    const ours = await stripe.paymentIntents.retrieve(res.payment.provider_reference);
    const deps = { db: platform.db, now: () => new Date() };
    // Another integration on the same Stripe account, our metadata copied onto a small PaymentIntent of its own.
    const copied = { ...ours, id: 'pi_someone_else', amount: 100, status: 'succeeded' as const };
    expect(await applyPaymentIntentEvent(deps, { accountId: platform.accountId, paymentIntent: copied })).toMatchObject({ applied: false });
    expect(await applyPaymentIntentEvent(deps, { accountId: platform.accountId, paymentIntent: { ...ours, amount: 100, status: 'succeeded' } })).toMatchObject({ applied: false });
    expect((await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } })).status).toBe('OPEN');
  });

  it('settles once, from the PaymentIntent Stripe holds, a charge whose run died before writing down its id', async () => {
    const customerId = await m.customer();
    const instrumentId = await stripeCard(platform, stripe, customerId, '4242424242424242');
    const invoice = await m.openInvoice(customerId);
    const charges = createChargeActivities({ db: platform.db });
    const input = { accountId: platform.accountId, customerId, instrumentId, amount: 10_000, currency: 'EUR', idempotencyKey: `${invoice.id}/test/died`, invoiceId: invoice.id };
    const first = await charges.chargePayment(input);
    expect(first.status).toBe('SUCCEEDED');
    // What a run that died between Stripe's answer and its records leaves: the request written
    // down without Stripe's id, the payment handed back unanswered.
    await platform.db.stripeRequest.update({ where: { accountId_idempotencyKey: { accountId: platform.accountId, idempotencyKey: `${first.paymentId}/stripe` } }, data: { objectId: null } });
    await platform.db.payment.update({ where: { id: first.paymentId }, data: { status: 'PENDING', attempts: [], provider: null, providerChargeId: null, fee: null } });

    const resumed = await charges.chargePayment(input);
    expect(resumed).toMatchObject({ paymentId: first.paymentId, status: 'SUCCEEDED', providerChargeId: first.providerChargeId });
    expect((await intentsOf(stripe, first.paymentId)).map((i) => i.id)).toEqual([first.providerChargeId]);
    const books = await platform.db.stripeRequest.findUniqueOrThrow({ where: { accountId_idempotencyKey: { accountId: platform.accountId, idempotencyKey: `${first.paymentId}/stripe` } } });
    expect(books.objectId).toBe(first.providerChargeId);
  });

  it('refunds through Stripe, once per request however often it is repeated', async () => {
    const { instrumentId, invoice } = await openInvoiceWithCard('4242424242424242');
    const paid = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: instrumentId });
    const headers = { 'idempotency-key': `refund-${invoice.id}` };
    const refund = await platform.call('/v2/invoices/refund', { id: invoice.id, amount: 2_500 }, { headers });
    const again = await platform.call('/v2/invoices/refund', { id: invoice.id, amount: 2_500 }, { headers });
    expect(refund.status).toBe(200);
    expect(refund.body.refund).toMatchObject({ status: 'SUCCEEDED', provider: 'stripe', amount: 2_500 });
    expect(again.body).toEqual(refund.body);
    const stripeRefunds = await stripe.refunds.list({ payment_intent: paid.payment.provider_reference });
    expect(stripeRefunds.data.map((r) => [r.amount, r.status])).toEqual([[2_500, 'succeeded']]);
    const row = await platform.db.refund.findUniqueOrThrow({ where: { id: refund.body.refund.id } });
    expect(row.providerRefundId).toBe(stripeRefunds.data[0]!.id);
  });

  it('skips Stripe for a card the sandbox tokenized before the account connected: no route reaches it', async () => {
    const customerId = await m.customer();
    const stripeHeld = await platform.db.paymentInstrument.findUniqueOrThrow({ where: { id: await stripeCard(platform, stripe, customerId, '4242424242424242') } });
    const { id: instrumentId } = await platform.db.paymentInstrument.create({
      data: { ...stripeHeld, id: `${stripeHeld.id}sbx`, sandboxScenario: 'APPROVE', provider: null, providerReference: null, providerCustomerReference: null },
    });
    const invoice = await m.openInvoice(customerId);
    const res = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: instrumentId });
    expect(res.payment).toMatchObject({ status: 'FAILED', decline_code: 'providers_unavailable' });
    expect(res.invoice.status).toBe('OPEN');
  });
});

describe('a payment waiting for the customer when the invoice is charged again', () => {
  async function waitingForAction() {
    const customerId = await m.customer();
    const authenticating = await stripeCard(platform, stripe, customerId, '4000002760003184');
    const plain = await stripeCard(platform, stripe, customerId, '4242424242424242');
    const invoice = await m.openInvoice(customerId);
    const first = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: authenticating });
    expect(first.payment.status).toBe('REQUIRES_ACTION');
    return { invoice, plain, first };
  }

  it('is withdrawn at Stripe first, so it can never complete beside the new charge', async () => {
    const { invoice, plain, first } = await waitingForAction();
    const second = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: plain });
    expect(second.payment.status).toBe('SUCCEEDED');
    expect((await stripe.paymentIntents.retrieve(first.payment.provider_reference)).status).toBe('canceled');
    const withdrawn = await platform.db.payment.findUniqueOrThrow({ where: { id: first.payment.id } });
    expect({ status: withdrawn.status, declineCode: withdrawn.declineCode }).toEqual({ status: 'DECLINED', declineCode: 'payment_intent_canceled' });
    const after = await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    expect({ status: after.status, amountPaid: after.amountPaid }).toEqual({ status: 'PAID', amountPaid: 10_000 });
  });

  it('pays the invoice when the customer got there first, and the new charge is refused', async () => {
    const { invoice, plain, first } = await waitingForAction();
    const intentId = first.payment.provider_reference as string;
    const intent = await stripe.paymentIntents.retrieve(intentId);
    // Authenticated at Stripe; its webhook has not arrived.
    await fetch(`${emulator.url}/v1/payment_intents/${intentId}/_authenticate?client_secret=${intent.client_secret}&success=true`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_platformkey0001' },
    });
    const second = await platform.call('/v2/invoices/pay', { id: invoice.id, payment_instrument_id: plain });
    expect({ status: second.status, code: second.body.code }).toEqual({ status: 422, code: 'INCOMPATIBLE_STATUS' });
    const after = await platform.db.invoice.findUniqueOrThrow({ where: { id: invoice.id } });
    expect({ status: after.status, amountPaid: after.amountPaid }).toEqual({ status: 'PAID', amountPaid: 10_000 });
    const succeeded = (await stripe.paymentIntents.list({ limit: 100 })).data.filter((i) => i.metadata?.bp_invoice_id === invoice.id && i.status === 'succeeded');
    expect(succeeded.map((i) => i.id)).toEqual([intentId]);
  });
});
