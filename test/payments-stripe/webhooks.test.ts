import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import { buildServer } from '../../api/http/server';
import { RateLimiter } from '../../api/rate-limit/token-bucket';
import { createAccount } from '../../scripts/operator/accounts';
import type { StripeEmulator } from '../../scripts/stripe/emulator-process';
import { createLogger } from '../../services/logging/logger';
import { recordObject, recordRequest } from '../../services/payments/providers/stripe/books';
import { applyStripeEvent } from '../../services/payments/stripe-events/apply';
import { claimStripeEvent } from '../../services/payments/stripe-events/stored-events';
import { sweepAbandonedPayments } from '../../services/payments/sweep';
import { usePlatform } from '../support/platform';
import { abandonedRefund, eventTypesOf, merchant, waitFor } from '../invoices-payments/fixtures';
import { connectToLocalstripe, stripeCard, TEST_SECRET_KEY, TEST_WEBHOOK_SECRET } from './stripe-fixtures';

/**
 * Issue 41, item 5: Stripe's webhooks in. localstripe sends its own signed events to the
 * account's endpoint; events localstripe cannot produce (disputes, a refund finishing later)
 * are signed here with the SDK, as Stripe signs them.
 */
const platform = usePlatform();
let m: ReturnType<typeof merchant>;
let emulator: StripeEmulator;
let stripe: Stripe;
/** A second API on the platform's database whose log lines the test reads. */
let logged: FastifyInstance;
let loggedUrl: string;
const lines: string[] = [];

beforeAll(async () => {
  m = merchant(platform);
  ({ emulator, stripe } = await connectToLocalstripe(platform));
  const registered = await fetch(`${emulator.url}/_config/webhooks/platform`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ url: webhookUrl(platform.baseUrl, platform.accountId), secret: TEST_WEBHOOK_SECRET }),
  });
  if (!registered.ok) throw new Error(`localstripe refused the webhook: ${registered.status}`);
  const logger = createLogger({ name: 'api', level: 'info', format: 'json', destination: { write: (line: string) => void lines.push(line) } });
  logged = buildServer({ db: platform.db, temporal: platform.env.client, rateLimiter: new RateLimiter(() => ({ ratePerSecond: 1000, burst: 1000 })) }, { logger });
  await logged.listen({ port: 0, host: '127.0.0.1' });
  loggedUrl = `http://127.0.0.1:${(logged.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await logged?.close();
  await emulator?.stop();
});

function webhookUrl(base: string, accountId: string): string {
  return `${base}/providers/stripe/webhooks/${accountId}`;
}

let sequence = 0;

/** An event as Stripe sends it: its own id, the object it is about. */
function eventOf(type: string, object: object, id = `evt_test_${Date.now()}_${++sequence}`) {
  return { id, object: 'event', api_version: '2025-01-27', created: Math.floor(Date.now() / 1000), livemode: false, type, data: { object } };
}

interface Delivery {
  secret?: string;
  /** Seconds since the epoch the signature claims. */
  timestamp?: number;
  signature?: string | null;
  accountId?: string;
  base?: string;
}

/** Delivers the payload's exact bytes, signed as Stripe signs them unless told otherwise. */
async function deliver(payload: object | string, options: Delivery = {}) {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload, null, 2);
  const signature =
    options.signature === undefined
      ? stripe.webhooks.generateTestHeaderString({ payload: body, secret: options.secret ?? TEST_WEBHOOK_SECRET, ...(options.timestamp ? { timestamp: options.timestamp } : {}) })
      : options.signature;
  const response = await fetch(webhookUrl(options.base ?? platform.baseUrl, options.accountId ?? platform.accountId), {
    method: 'POST',
    headers: { 'content-type': 'application/json; charset=utf-8', ...(signature !== null ? { 'stripe-signature': signature } : {}) },
    body,
  });
  return { status: response.status, body: (await response.json()) as any };
}

const storedEvent = (eventId: string) => platform.db.stripeEvent.findMany({ where: { eventId } });

/** The stored event once applied: the answer comes first, the application right after it. */
async function appliedEvent(eventId: string) {
  return waitFor(`event ${eventId} applied`, async () => {
    const [row] = await storedEvent(eventId);
    return row?.appliedAt ? row : undefined;
  });
}

async function openInvoiceWithCard(number: string) {
  const customerId = await m.customer();
  const instrumentId = await stripeCard(platform, stripe, customerId, number);
  const invoice = await m.openInvoice(customerId);
  return { customerId, instrumentId, invoice };
}

/** An invoice whose payment waits for the customer's authentication (SCA), and its PaymentIntent as localstripe holds it. */
async function waitingForAuthentication() {
  const { instrumentId, invoice } = await openInvoiceWithCard('4000002760003184');
  const res = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: instrumentId });
  expect(res.payment.status).toBe('REQUIRES_ACTION');
  const intent = await stripe.paymentIntents.retrieve(res.payment.provider_reference);
  return { invoice, paymentId: res.payment.id as string, intent };
}

async function paidWithStripe() {
  const { instrumentId, invoice } = await openInvoiceWithCard('4242424242424242');
  const paid = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: instrumentId });
  const payment = await platform.db.payment.findUniqueOrThrow({ where: { id: paid.payment.id } });
  const intent = await stripe.paymentIntents.retrieve(payment.providerChargeId!);
  return { invoice, payment, intent };
}

/** localstripe expands a PaymentIntent's latest charge; Stripe names it. */
const chargeIdOf = (intent: Stripe.PaymentIntent) => (typeof intent.latest_charge === 'string' ? intent.latest_charge : intent.latest_charge!.id);

const invoiceRow = (id: string) => platform.db.invoice.findUniqueOrThrow({ where: { id } });
const outboxCount = () => platform.db.outboxEvent.count();

describe('POST /providers/stripe/webhooks/{account}', () => {
  it("stores localstripe's signed events once and applies them: the customer's authentication pays the invoice", async () => {
    const { invoice, paymentId, intent } = await waitingForAuthentication();
    // The customer authenticates at Stripe (localstripe's stand-in for the 3-D Secure page):
    // localstripe signs payment_intent.succeeded with the connection's secret and posts it a second later.
    const authenticated = await fetch(`${emulator.url}/v1/payment_intents/${intent.id}/_authenticate?client_secret=${intent.client_secret}&success=true`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_SECRET_KEY}` },
    });
    expect(authenticated.status).toBe(200);

    const row = await waitFor('payment_intent.succeeded from localstripe', async () =>
      (await platform.db.stripeEvent.findMany({ where: { accountId: platform.accountId, type: 'payment_intent.succeeded', objectId: intent.id } }))[0],
    );
    const applied = await appliedEvent(row.eventId);
    expect(applied.outcome).toBe(`payment ${paymentId} SUCCEEDED`);
    expect((applied.payload as { data: { object: { id: string } } }).data.object.id).toBe(intent.id);
    const after = await invoiceRow(invoice.id);
    expect({ status: after.status, amountPaid: after.amountPaid, amountDue: after.amountDue }).toEqual({ status: 'PAID', amountPaid: 10_000, amountDue: 0 });
    expect((await eventTypesOf(platform, invoice.id)).filter((t) => t === 'INVOICE_PAID')).toHaveLength(1);

    // Every event localstripe sent is stored; those the platform does not act on are marked ignored.
    const created = await waitFor('customer.created from localstripe', async () =>
      (await platform.db.stripeEvent.findMany({ where: { accountId: platform.accountId, type: 'customer.created', appliedAt: { not: null } } }))[0],
    );
    expect(created.outcome).toBe('ignored: customer.created is not an event the platform acts on');
  });

  it('refuses a forged, stale, wrongly keyed or unsigned delivery with 400, stores nothing and logs no secret', async () => {
    const event = eventOf('payment_intent.succeeded', { id: 'pi_never', object: 'payment_intent', status: 'succeeded' });
    const body = JSON.stringify(event);
    const now = Math.floor(Date.now() / 1000);
    const forged = `t=${now},v1=${'0'.repeat(64)}`;
    const refusals = [
      { name: 'forged', delivery: { signature: forged }, message: /does not match/ },
      { name: 'stale', delivery: { timestamp: now - 301 }, message: /more than 300 s old/ },
      { name: 'wrong secret', delivery: { secret: 'whsec_notthisaccountssecret01' }, message: /does not match/ },
      { name: 'unsigned', delivery: { signature: null }, message: /missing/ },
    ];
    for (const { name, delivery, message } of refusals) {
      const res = await deliver(body, { ...delivery, base: loggedUrl });
      expect([name, res.status, res.body.code]).toEqual([name, 400, 'VALIDATION']);
      expect(res.body.message).toMatch(message);
      expect(Object.keys(res.body.context.constraints)).toEqual(['Stripe-Signature']);
    }
    // The body itself tampered with after signing.
    const signed = stripe.webhooks.generateTestHeaderString({ payload: body, secret: TEST_WEBHOOK_SECRET });
    expect((await deliver(body.replace('pi_never', 'pi_other'), { signature: signed, base: loggedUrl })).status).toBe(400);
    expect(await storedEvent(event.id)).toEqual([]);

    const refused = lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'Stripe webhook refused');
    expect(refused).toHaveLength(5);
    expect(refused.every((line) => line.account_id === platform.accountId && line.code === 'VALIDATION')).toBe(true);
    const written = lines.join('\n');
    for (const secret of [TEST_WEBHOOK_SECRET, 'whsec_notthisaccountssecret01', forged.slice(-64), signed.split('v1=')[1]!, 'pi_never']) {
      expect(written).not.toContain(secret);
    }
  });

  it('answers 404 in the error envelope for an unknown account and for one without a Stripe connection, storing nothing', async () => {
    const unconnected = await createAccount(platform.db, 'No Stripe here');
    const event = eventOf('payment_intent.succeeded', { id: 'pi_elsewhere', object: 'payment_intent', status: 'succeeded' });
    for (const accountId of ['acct_doesnotexist', unconnected.id]) {
      const res = await deliver(event, { accountId });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'NOT_FOUND', message: `Account ${accountId} has no Stripe connection.` });
    }
    expect(await storedEvent(event.id)).toEqual([]);
  });

  it('stores an event delivered twice once and applies it once; a late payment_failed does not undo the success', async () => {
    const { invoice, paymentId, intent } = await waitingForAuthentication();
    const succeeded = eventOf('payment_intent.succeeded', { ...intent, status: 'succeeded', next_action: null });
    const answers = await Promise.all([deliver(succeeded), deliver(succeeded)]);
    expect(answers).toEqual([
      { status: 200, body: { received: true } },
      { status: 200, body: { received: true } },
    ]);
    expect(await storedEvent(succeeded.id)).toHaveLength(1);
    expect((await appliedEvent(succeeded.id)).outcome).toBe(`payment ${paymentId} SUCCEEDED`);
    expect((await deliver(succeeded)).status).toBe(200);

    const failed = eventOf('payment_intent.payment_failed', {
      ...intent,
      status: 'requires_payment_method',
      next_action: null,
      last_payment_error: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
    });
    expect((await deliver(failed)).status).toBe(200);
    expect((await appliedEvent(failed.id)).outcome).toBe(`ignored: payment ${paymentId} is SUCCEEDED`);

    expect(await platform.db.payment.findUniqueOrThrow({ where: { id: paymentId } })).toMatchObject({ status: 'SUCCEEDED', declineCode: null });
    expect((await invoiceRow(invoice.id)).status).toBe('PAID');
    const types = await eventTypesOf(platform, invoice.id);
    expect(types.filter((t) => t === 'INVOICE_PAID')).toHaveLength(1);
    expect(types.filter((t) => t === 'INVOICE_PAYMENT_FAILED')).toHaveLength(1); // the SCA answer's, before the customer acted
  });

  it('ignores an event for a PaymentIntent no payment of the account made, and a type it does not act on, changing nothing', async () => {
    const before = await outboxCount();
    const stranger = eventOf('payment_intent.succeeded', { id: 'pi_madeelsewhere', object: 'payment_intent', status: 'succeeded', amount: 500, currency: 'eur', metadata: {} });
    const unknownType = eventOf('invoice.finalized', { id: 'in_stripesown', object: 'invoice' });
    for (const event of [stranger, unknownType]) expect((await deliver(event)).status).toBe(200);
    expect((await appliedEvent(stranger.id)).outcome).toBe('ignored: no payment of this account made PaymentIntent pi_madeelsewhere');
    expect((await appliedEvent(unknownType.id)).outcome).toBe('ignored: invoice.finalized is not an event the platform acts on');
    expect(await outboxCount()).toBe(before);
  });

  it('announces a dispute as PaymentDisputed once, however often its event comes', async () => {
    const { invoice, payment, intent } = await paidWithStripe();
    const created = Math.floor(Date.now() / 1000) - 60;
    const dispute = {
      id: `dp_test_${Date.now()}`,
      object: 'dispute',
      amount: 10_000,
      currency: 'eur',
      reason: 'fraudulent',
      status: 'needs_response',
      created,
      charge: chargeIdOf(intent),
      payment_intent: intent.id,
      livemode: false,
    };
    const event = eventOf('charge.dispute.created', dispute);
    await Promise.all([deliver(event), deliver(event)]);
    expect((await appliedEvent(event.id)).outcome).toBe(`PaymentDisputed recorded for payment ${payment.id} (dispute ${dispute.id})`);
    // Delivered again later, and applied again by a run that read it before it was marked: nothing more.
    expect((await deliver(event)).status).toBe(200);
    expect(await applyStripeEvent(deps(), { accountId: platform.accountId, eventId: event.id })).toBeNull();
    await expect(platform.db.$transaction((tx) => claimStripeEvent(tx, { accountId: platform.accountId, eventId: event.id }))).resolves.toBe(false);
    const disputed = await platform.db.outboxEvent.findMany({ where: { accountId: platform.accountId, eventType: 'PAYMENT_DISPUTED' } });
    const ofThisDispute = disputed.filter((e) => (e.data as { dispute: { id: string } }).dispute.id === dispute.id);
    expect(ofThisDispute).toHaveLength(1);
    expect(ofThisDispute[0]!.channelId).toBe(payment.channelId);
    expect(ofThisDispute[0]!.data).toEqual({
      payment: expect.objectContaining({ id: payment.id, status: 'SUCCEEDED', amount: 10_000, currency: 'EUR', provider: 'stripe', provider_reference: intent.id }),
      invoice: expect.objectContaining({ id: invoice.id, status: 'PAID' }),
      dispute: { id: dispute.id, amount: 10_000, currency: 'EUR', reason: 'fraudulent', status: 'needs_response', created_at: new Date(created * 1000).toISOString().replace('Z', '000Z') },
    });
  });

  it("finishes PENDING refunds with Stripe's word (refund.updated, charge.refunded) and invents none for a refund made in Stripe's dashboard", async () => {
    const { invoice, payment, intent } = await paidWithStripe();
    const refundEvents = async () => (await eventTypesOf(platform, invoice.id)).filter((t) => t === 'INVOICE_PAYMENT_REFUNDED').length;

    const [idA, idB, idC] = ['a', 'b', 'c'].map((letter) => `rfnd_hook_${letter}_${invoice.id.slice(-8)}`) as [string, string, string];
    // A refund of ours Stripe accepted and finished later; found by the key in its metadata.
    await abandonedRefund(platform, invoice, payment, idA, 1_000);
    const keyA = `${invoice.id}/refund/${idA}`;
    const refundA = await stripe.refunds.create({ payment_intent: intent.id, amount: 1_000, metadata: { bp_idempotency_key: keyA } });
    const updated = eventOf('refund.updated', refundA);
    expect((await deliver(updated)).status).toBe(200);
    expect((await appliedEvent(updated.id)).outcome).toBe(`refund ${idA} SUCCEEDED`);
    expect(await platform.db.refund.findUniqueOrThrow({ where: { id: idA } })).toMatchObject({ status: 'SUCCEEDED', providerRefundId: refundA.id });
    expect(await refundEvents()).toBe(1);

    // Another, found by our books; a refund made in Stripe's dashboard; one that failed at Stripe.
    await abandonedRefund(platform, invoice, payment, idB, 2_000);
    const keyB = `${invoice.id}/refund/${idB}`;
    await recordRequest(platform.db, { accountId: platform.accountId, idempotencyKey: keyB, kind: 'REFUND', amount: 2_000, currency: '' }, new Date());
    const refundB = await stripe.refunds.create({ payment_intent: intent.id, amount: 2_000 });
    await recordObject(platform.db, platform.accountId, keyB, refundB.id, new Date());
    const outside = await stripe.refunds.create({ payment_intent: intent.id, amount: 500 });
    // charge.refunded as API versions since 2022-11-15 send it: without the refunds, listed from Stripe.
    const charge = await stripe.charges.retrieve(chargeIdOf(intent));
    const refunded = eventOf('charge.refunded', { ...charge, refunds: undefined });
    expect((await deliver(refunded)).status).toBe(200);
    const outcome = (await appliedEvent(refunded.id)).outcome!;
    expect(outcome.split('; ').sort()).toEqual(
      [`ignored: refund ${idA} is SUCCEEDED`, `refund ${idB} SUCCEEDED`, `unknown refund ${outside.id}: not made by the platform, not recorded`].sort(),
    );
    expect(await platform.db.refund.findUniqueOrThrow({ where: { id: idB } })).toMatchObject({ status: 'SUCCEEDED', providerRefundId: refundB.id });
    expect(await platform.db.refund.count({ where: { invoiceId: invoice.id } })).toBe(2);
    expect(await refundEvents()).toBe(2);

    await abandonedRefund(platform, invoice, payment, idC, 3_000);
    const failed = eventOf('refund.failed', { id: 're_failedatstripe', object: 'refund', amount: 3_000, status: 'failed', failure_reason: 'expired_or_canceled_card', metadata: { bp_idempotency_key: `${invoice.id}/refund/${idC}` } });
    expect((await deliver(failed)).status).toBe(200);
    expect((await appliedEvent(failed.id)).outcome).toBe(`refund ${idC} FAILED`);
    // The amount reserved for the failed refund is given back; the two that succeeded stay refunded.
    expect((await invoiceRow(invoice.id)).amountRefunded).toBe(3_000);
    expect((await platform.db.payment.findUniqueOrThrow({ where: { id: payment.id } })).refundedAmount).toBe(3_000);
    expect(await refundEvents()).toBe(2);
  });

  it('leaves to the payment sweeper an event its process stored and never applied: applied once, one stored a moment ago left to the API', async () => {
    const { invoice, paymentId, intent } = await waitingForAuthentication();
    // What an API process that died right after its answer leaves: the event stored, unapplied.
    const event = eventOf('payment_intent.succeeded', { ...intent, status: 'succeeded', next_action: null });
    const receivedAt = new Date(Date.now() - 60_000);
    await platform.db.stripeEvent.create({ data: { accountId: platform.accountId, eventId: event.id, type: event.type, objectId: intent.id, payload: event, receivedAt } });
    // One received a moment ago is still the API's to apply.
    const fresh = eventOf('customer.updated', { id: 'cus_fresh', object: 'customer' });
    await platform.db.stripeEvent.create({ data: { accountId: platform.accountId, eventId: fresh.id, type: fresh.type, objectId: 'cus_fresh', payload: fresh, receivedAt: new Date() } });

    const first = await sweepOnce();
    expect(first.stripeEvents).toBeGreaterThanOrEqual(1);
    expect((await storedEvent(event.id))[0]).toMatchObject({ outcome: `payment ${paymentId} SUCCEEDED`, appliedAt: expect.any(Date) });
    expect((await storedEvent(fresh.id))[0]).toMatchObject({ appliedAt: null });
    expect((await invoiceRow(invoice.id)).status).toBe('PAID');

    const again = await sweepOnce();
    expect(again.failed).toBe(0);
    expect((await eventTypesOf(platform, invoice.id)).filter((t) => t === 'INVOICE_PAID')).toHaveLength(1);
  });
});

function deps() {
  return { db: platform.db, temporal: platform.env.client, now: () => new Date() };
}

function sweepOnce() {
  return sweepAbandonedPayments({ ...deps(), progress: () => undefined, warn: () => undefined }, { limit: 100 });
}
