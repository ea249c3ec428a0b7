import { Client, type WorkflowHandle } from '@temporalio/client';
import { endOfExpiryMonth } from '../../domain/cards';
import { formatDateTime } from '../../domain/datetime';
import { paymentInstrumentExpiryWorkflowId } from '../../domain/workflow-ids';
import { usePlatform } from '../support/platform';

const platform = usePlatform();
let customerId: string;

beforeAll(async () => {
  const res = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'expiry@example.com', channel_id: platform.channelIds[2] });
  customerId = res.body.id;
});

const HOUR = 60 * 60 * 1000;
const YEAR = 365 * 24 * HOUR;

async function tokenize(expMonth: number, expYear: number) {
  const res = await platform.call('/v2/payment-instruments/tokenize', {
    customer_id: customerId,
    card: { number: '4242424242424242', exp_month: expMonth, exp_year: expYear },
  });
  expect(res.status).toBe(200);
  return { instrument: res.body, workflow: platform.env.client.workflow.getHandle(paymentInstrumentExpiryWorkflowId(res.body.id)) };
}

/**
 * The result of a workflow that has finished. The time-skipping client's `result()` unlocks
 * time skipping while it waits, and the test server then races ahead to its next pending timer
 * (a finished workflow's ten-year run timeout), ten years in one step. A plain client reads a
 * finished workflow's result without moving the clock, so each test sets time with `sleep`.
 */
async function finishedResult(workflow: WorkflowHandle) {
  expect((await workflow.describe()).status.name).toBe('COMPLETED');
  return new Client({ connection: platform.env.connection }).workflow.getHandle(workflow.workflowId).result();
}

/** Moves the Temporal clock to `at` plus a margin. */
async function sleepPast(at: number) {
  await platform.env.sleep(at - (await platform.env.currentTimeMs()) + HOUR);
}

const get = async (id: string) => (await platform.call('/v2/payment-instruments/get', { id })).body;

const expiredEventsOf = async (id: string) =>
  (await platform.db.outboxEvent.findMany({ where: { eventType: 'PAYMENT_INSTRUMENT_EXPIRED' } })).filter(
    (e) => (e.data as { payment_instrument: { id: string } }).payment_instrument.id === id,
  );

// The tests share one Temporal clock and run in order: each card expires after the time the
// previous test skipped to.
describe('durable expiry of payment instruments', () => {
  it('expires a card at the end of its expiry month, with PaymentInstrumentExpired', async () => {
    const now = new Date();
    const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
    const month = next.getUTCMonth() + 1;
    const year = next.getUTCFullYear();
    const { instrument, workflow } = await tokenize(month, year);
    const deadline = endOfExpiryMonth(month, year).getTime();

    await platform.env.sleep(deadline - (await platform.env.currentTimeMs()) - HOUR);
    expect((await get(instrument.id)).status).toBe('ACTIVE');
    expect(await expiredEventsOf(instrument.id)).toHaveLength(0);

    await platform.env.sleep(2 * HOUR);
    expect(await finishedResult(workflow)).toEqual({ expired: true });
    const expired = await get(instrument.id);
    expect(expired).toEqual({ ...instrument, status: 'EXPIRED', expired_at: formatDateTime(new Date(deadline)), updated_at: expect.any(String) });

    const events = await expiredEventsOf(instrument.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ channelId: platform.channelIds[2], data: { payment_instrument: expired } });
    expect(events[0]!.occurredAt.getTime()).toBe(deadline);

    const revoke = await platform.call('/v2/payment-instruments/revoke', { id: instrument.id });
    expect(revoke.status).toBe(422);
    expect(revoke.body.context).toEqual({ status: 'EXPIRED' });
  });

  it('clears an expiring default as the customer’s default, with CustomerUpdated', async () => {
    const year = new Date().getUTCFullYear() + 1;
    const { instrument, workflow } = await tokenize(9, year);
    expect((await platform.call('/v2/customers/patch', { id: customerId, configuration: { default_payment_instrument_id: instrument.id } })).status).toBe(200);
    await sleepPast(endOfExpiryMonth(9, year).getTime());
    expect(await finishedResult(workflow)).toEqual({ expired: true });
    const customer = (await platform.call('/v2/customers/get', { id: customerId })).body;
    expect(customer).not.toHaveProperty('configuration.default_payment_instrument_id');
    const events = (await platform.db.outboxEvent.findMany({ where: { eventType: 'CUSTOMER_UPDATED' }, orderBy: { id: 'asc' } })).filter(
      (e) => (e.data as { customer: { id: string } }).customer.id === customerId,
    );
    expect(events.at(-1)).toMatchObject({ channelId: platform.channelIds[2], data: { customer } });
  });

  it('leaves a revoked card revoked when its expiry comes', async () => {
    const year = new Date().getUTCFullYear() + 2;
    const { instrument, workflow } = await tokenize(6, year);
    expect((await platform.call('/v2/payment-instruments/revoke', { id: instrument.id })).status).toBe(200);
    await sleepPast(endOfExpiryMonth(6, year).getTime());
    expect(await finishedResult(workflow)).toEqual({ expired: false });
    const after = await get(instrument.id);
    expect(after.status).toBe('REVOKED');
    expect(after).not.toHaveProperty('expired_at');
    expect(await expiredEventsOf(instrument.id)).toHaveLength(0);
  });

  it('sleeps years in one-year timers and still expires on time', async () => {
    const year = new Date().getUTCFullYear() + 7;
    const deadline = endOfExpiryMonth(3, year).getTime();
    const startedAt = await platform.env.currentTimeMs();
    const { instrument, workflow } = await tokenize(3, year);
    await sleepPast(deadline - 2 * HOUR);
    expect((await get(instrument.id)).status).toBe('ACTIVE');
    await sleepPast(deadline);
    expect(await finishedResult(workflow)).toEqual({ expired: true });
    expect((await get(instrument.id)).expired_at).toBe(formatDateTime(new Date(deadline)));

    const history = await workflow.fetchHistory();
    const timers = (history.events ?? []).filter((e) => e.timerStartedEventAttributes);
    expect(timers).toHaveLength(Math.ceil((deadline - startedAt) / YEAR));
    expect(timers.length).toBeGreaterThan(1);
  });
});
