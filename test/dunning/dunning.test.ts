import { Client } from '@temporalio/client';
import { createChargeActivities } from '../../activities/charge';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createInvoiceCollectionActivities, type AttemptInput } from '../../activities/invoice-collection';
import { invoiceCollectionWorkflowId } from '../../domain/workflow-ids';
import { usePlatform } from '../support/platform';
import { eventsOf, eventTypesOf, merchant, providerChargesOf, waitFor } from '../invoices-payments/fixtures';

const platform = usePlatform();
let m: ReturnType<typeof merchant>;

beforeAll(async () => {
  m = merchant(platform);
});

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const SOFT = '4000000000009995';
const GOOD = '4242424242424242';

const statusOf = async (id: string) => (await platform.db.invoice.findUniqueOrThrow({ where: { id } })).status;
const failures = async (id: string) => (await eventTypesOf(platform, id)).filter((t) => t === 'INVOICE_PAYMENT_FAILED').length;

/** A CHARGE_AUTOMATICALLY invoice on a soft-declining default card, once its first charge has failed. */
async function inDunning(options: { discounts?: unknown[] } = {}) {
  const customerId = await m.customer();
  const soft = await m.card(customerId, SOFT);
  await m.setDefaultInstrument(customerId, soft);
  const invoice = await m.openInvoice(customerId, { collection_method: 'CHARGE_AUTOMATICALLY', ...options });
  await waitFor('dunning', async () => (await statusOf(invoice.id)) === 'DUNNING');
  /** The customer's new card becomes the default and the failing one is revoked, as a card replacement does. */
  const replaceCard = async () => {
    await m.setDefaultInstrument(customerId, await m.card(customerId, GOOD));
    await m.ok('payment-instruments/revoke', { id: soft });
  };
  return { customerId, invoice, workflowId: invoiceCollectionWorkflowId(invoice.id), replaceCard };
}

/**
 * The result of a finished collection. Read through a plain client: the time-skipping client's
 * `result()` would let the test server race ahead while it waits.
 */
async function collectionResult(workflowId: string) {
  const client = new Client({ connection: platform.env.connection });
  await waitFor('the collection to end', async () => (await client.workflow.getHandle(workflowId).describe()).status.name === 'COMPLETED');
  return client.workflow.getHandle(workflowId).result();
}

describe('the collection workflow', () => {
  it('charges at finalization: a good card pays the invoice at once', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId, { collection_method: 'CHARGE_AUTOMATICALLY', payment_instrument_id: await m.card(customerId, GOOD) });
    expect(await collectionResult(invoiceCollectionWorkflowId(invoice.id))).toEqual({ status: 'PAID', attempts: 1 });
    expect(await eventTypesOf(platform, invoice.id)).toEqual(['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_PAID']);
    expect(await providerChargesOf(platform, invoice.id)).toHaveLength(1);
  });

  it('a hard decline leaves the invoice OPEN and ends the collection', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId, {
      collection_method: 'CHARGE_AUTOMATICALLY',
      payment_instrument_id: await m.card(customerId, '4000000000000002'),
    });
    expect(await collectionResult(invoiceCollectionWorkflowId(invoice.id))).toEqual({ status: 'OPEN', attempts: 1 });
    expect(await eventTypesOf(platform, invoice.id)).toEqual(['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_PAYMENT_FAILED']);
  });

  it('a soft decline starts dunning; the customer replaces the card and the next retry charges the new one', async () => {
    const coupon = await m.ok('coupons/create', { code: 'DUN10', calculation_type: 'PERCENTAGE', calculation_value: 10 });
    const { invoice, workflowId, replaceCard } = await inDunning({ discounts: [{ coupon_id: coupon.id }] });
    expect(await eventTypesOf(platform, invoice.id)).toEqual(['INVOICE_CREATED', 'INVOICE_FINALIZED', 'INVOICE_PAYMENT_FAILED', 'INVOICE_DUNNING_STARTED']);
    const started = (await eventsOf(platform, invoice.id)).find((e) => e.eventType === 'INVOICE_DUNNING_STARTED')!;
    expect((started.data as { invoice: unknown }).invoice).toMatchObject({
      status: 'DUNNING',
      amount_due: 9_000,
      amount_details: { subtotal: 10_000, discount: 1_000 },
      discounts: [{ coupon_id: coupon.id, coupon_code: 'DUN10', calculation_type: 'PERCENTAGE', calculation_value: 10 }],
    });

    await platform.env.sleep(DAY - HOUR);
    expect(await failures(invoice.id)).toBe(1);
    await platform.env.sleep(2 * HOUR);
    expect(await failures(invoice.id)).toBe(2);
    expect(await statusOf(invoice.id)).toBe('DUNNING');

    await replaceCard();
    await platform.env.sleep(2 * DAY);
    expect(await collectionResult(workflowId)).toEqual({ status: 'PAID', attempts: 3 });
    expect(await m.ok('invoices/get', { id: invoice.id })).toMatchObject({ status: 'PAID', amount_due: 0 });
    expect((await eventTypesOf(platform, invoice.id)).slice(-2)).toEqual(['INVOICE_PAYMENT_FAILED', 'INVOICE_PAID']);
    // Two soft declines (alpha, beta) per failed attempt, then one approval.
    expect((await providerChargesOf(platform, invoice.id)).map((c) => c.outcome)).toEqual([
      'SOFT_DECLINED', 'SOFT_DECLINED', 'SOFT_DECLINED', 'SOFT_DECLINED', 'APPROVED',
    ]);
    const keys = (await platform.db.payment.findMany({ where: { invoiceId: invoice.id }, orderBy: { id: 'asc' } })).map((p) => p.idempotencyKey);
    expect(keys).toEqual([0, 1, 2].map((n) => `${invoice.id}/collection/${n}`));
  });

  it('every retry failing ends UNPAID after the default schedule (1, 3, 5, 7 days)', async () => {
    const { invoice, workflowId } = await inDunning();
    await platform.env.sleep(7 * DAY - HOUR);
    expect(await statusOf(invoice.id)).toBe('DUNNING');
    expect(await failures(invoice.id)).toBe(4);
    await platform.env.sleep(2 * HOUR);
    expect(await collectionResult(workflowId)).toEqual({ status: 'UNPAID', attempts: 5 });
    expect((await eventTypesOf(platform, invoice.id)).slice(-2)).toEqual(['INVOICE_PAYMENT_FAILED', 'INVOICE_UNPAID']);
    expect(await failures(invoice.id)).toBe(5);
    expect(await providerChargesOf(platform, invoice.id)).toHaveLength(10);
  });

  it('a void during dunning ends the collection at once, with no further charge', async () => {
    const { invoice, workflowId } = await inDunning();
    await m.ok('invoices/void', { id: invoice.id });
    expect(await collectionResult(workflowId)).toEqual({ status: 'VOIDED', attempts: 1 });
    await platform.env.sleep(8 * DAY);
    expect(await providerChargesOf(platform, invoice.id)).toHaveLength(2);
    expect(await failures(invoice.id)).toBe(1);
  });

  it('a manual pay during dunning ends the collection', async () => {
    const { customerId, invoice, workflowId } = await inDunning();
    const paid = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: await m.card(customerId, GOOD) });
    expect(paid.invoice.status).toBe('PAID');
    expect(await collectionResult(workflowId)).toEqual({ status: 'PAID', attempts: 1 });
    await platform.env.sleep(8 * DAY);
    expect((await providerChargesOf(platform, invoice.id)).map((c) => c.outcome)).toEqual(['SOFT_DECLINED', 'SOFT_DECLINED', 'APPROVED']);
    expect((await eventTypesOf(platform, invoice.id)).filter((t) => t === 'INVOICE_PAID')).toHaveLength(1);
  });

  it('a worker restart mid-dunning neither loses nor repeats a charge', async () => {
    const { invoice, workflowId, replaceCard } = await inDunning();
    await platform.restartWorker();
    await platform.env.sleep(DAY + HOUR);
    expect(await failures(invoice.id)).toBe(2);
    await replaceCard();
    await platform.restartWorker();
    await platform.env.sleep(2 * DAY);
    expect(await collectionResult(workflowId)).toEqual({ status: 'PAID', attempts: 3 });
    expect(await providerChargesOf(platform, invoice.id)).toHaveLength(5);
    expect(await platform.db.payment.count({ where: { invoiceId: invoice.id } })).toBe(3);
  });

  it('an attempt cut off between charging and settling is finished by its retry: one charge, kept', async () => {
    const { customerId, invoice, workflowId } = await inDunning();
    // What attempt 1 leaves if its worker dies right after the provider charged: the claim and
    // the payment under the attempt's key, the invoice not yet marked.
    const key = `${invoice.id}/collection/1`;
    await platform.db.invoice.update({ where: { id: invoice.id }, data: { paymentInProgressId: key } });
    const charged = await createChargeActivities({ db: platform.db }).chargePayment({
      accountId: platform.accountId,
      customerId,
      instrumentId: await m.card(customerId, GOOD),
      amount: 10_000,
      currency: 'EUR',
      idempotencyKey: key,
      invoiceId: invoice.id,
    });
    await platform.env.sleep(DAY + HOUR);
    expect(await collectionResult(workflowId)).toEqual({ status: 'PAID', attempts: 2 });
    const paid = (await eventsOf(platform, invoice.id)).find((e) => e.eventType === 'INVOICE_PAID')!;
    expect((paid.data as { payment: { id: string } }).payment.id).toBe(charged.paymentId);
    expect((await providerChargesOf(platform, invoice.id)).map((c) => c.outcome)).toEqual(['SOFT_DECLINED', 'SOFT_DECLINED', 'APPROVED']);
  });

  it('an attempt retried after its settlement committed answers with that outcome: one charge, one event', async () => {
    const { invoice, workflowId } = await inDunning();
    const failedEventIds = async () =>
      (await eventsOf(platform, invoice.id)).filter((e) => e.eventType === 'INVOICE_PAYMENT_FAILED').map((e) => e.id);
    const [firstFailure] = await failedEventIds();
    // What Temporal does when a worker dies after the settlement committed but before the
    // activity's completion reached the server: it runs the same attempt again.
    const activities = createInvoiceCollectionActivities({ db: platform.db });
    const attemptInvoiceCollection = (input: AttemptInput) => new MockActivityEnvironment().run(activities.attemptInvoiceCollection, input);
    expect(await attemptInvoiceCollection({ invoiceId: invoice.id, attempt: 0, retriesLeft: 4 })).toMatchObject({ status: 'DUNNING', retry: true });
    expect(await failedEventIds()).toEqual([firstFailure]);

    const once = await attemptInvoiceCollection({ invoiceId: invoice.id, attempt: 1, retriesLeft: 3 });
    const twice = await attemptInvoiceCollection({ invoiceId: invoice.id, attempt: 1, retriesLeft: 3 });
    expect(once).toMatchObject({ status: 'DUNNING', retry: true, paymentId: expect.stringMatching(/^pay_/) });
    expect(twice).toEqual(once);
    expect(await failedEventIds()).toHaveLength(2);
    expect(await providerChargesOf(platform, invoice.id)).toHaveLength(4);

    // The workflow's own attempt 1, due after a day, finds it settled as well.
    await platform.env.sleep(DAY + HOUR);
    expect(await failedEventIds()).toHaveLength(2);
    expect(await providerChargesOf(platform, invoice.id)).toHaveLength(4);
    await m.ok('invoices/void', { id: invoice.id });
    expect(await collectionResult(workflowId)).toEqual({ status: 'VOIDED', attempts: 2 });
  });
});
