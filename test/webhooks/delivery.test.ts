import type { AddressInfo } from 'node:net';
import { Client } from '@temporalio/client';
import { buildServer } from '../../api/http/server';
import { RateLimiter } from '../../api/rate-limit/token-bucket';
import { dispatchOutboxBatch } from '../../services/webhooks/outbox-dispatch';
import { claimDueDeliveries } from '../../services/webhooks/sender-claim';
import { computeSignature, verifySignature } from '../../domain/webhook-receiver';
import { webhookDeliveryWorkflowId } from '../../domain/workflow-ids';
import { usePlatform } from '../support/platform';
import { startReceiver, waitFor, type TestReceiver } from './receiver';

// Attempts that hang are cut off after 1 s here rather than 10 s; read by the worker at each attempt.
process.env.WEBHOOK_DELIVERY_TIMEOUT_MS = '1000';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

const platform = usePlatform();
const receivers: TestReceiver[] = [];
/** Endpoints a test made ACTIVE: deactivated after it, so no test receives another's events. */
let endpointsOfTest: string[] = [];

afterEach(async () => {
  for (const id of endpointsOfTest) await platform.call('/v2/webhooks/patch', { id, status: 'INACTIVE' });
  endpointsOfTest = [];
});

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function ok(path: string, body: unknown) {
  const res = await platform.call(`/v2/${path}`, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A receiver on the kit, registered as an ACTIVE endpoint for `eventTypes`, knowing the endpoint's secret. */
async function activeEndpoint(eventTypes: string[] = ['CUSTOMER_CREATED', 'CUSTOMER_UPDATED'], extra: Record<string, unknown> = {}) {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const endpoint = await ok('webhooks/create', { url: receiver.url, event_types: eventTypes, ...extra });
  receiver.setSecrets([endpoint.secret]);
  await ok('webhooks/patch', { id: endpoint.id, status: 'ACTIVE' });
  endpointsOfTest.push(endpoint.id);
  return { receiver, endpoint: endpoint as { id: string; secret: string } };
}

const customer = (body: Record<string, unknown> = {}) => ok('customers/create', { type: 'INDIVIDUAL', email: 'hooks@example.com', ...body });

async function eventOf(customerId: string, eventType = 'CUSTOMER_CREATED') {
  const rows = await platform.db.outboxEvent.findMany({ where: { eventType }, orderBy: { id: 'asc' } });
  return rows.find((row) => (row.data as { customer: { id: string } }).customer.id === customerId)!;
}

const deliveriesOf = async (query: { endpoint_id?: string; event_id?: string }) => (await ok('webhooks/list-deliveries', query)).items;

/** The delivery of an event to an endpoint once it has `attempts` attempts on record. */
const deliveryAfter = (eventId: string, endpointId: string, attempts: number) =>
  waitFor(`attempt ${attempts} of ${eventId}`, async () => {
    const [delivery] = await deliveriesOf({ event_id: eventId, endpoint_id: endpointId });
    // Both counts: Prisma reads the delivery and its attempts in two statements, possibly across the attempt's commit.
    return delivery?.attempts.length === attempts && delivery.attempt_count === attempts && delivery;
  });

const dispatched = (eventId: string) =>
  waitFor(`${eventId} dispatched`, async () => (await platform.db.outboxEvent.findUniqueOrThrow({ where: { id: eventId } })).dispatchedAt);

describe('delivery of committed events', () => {
  it('sends nothing to an INACTIVE endpoint; once ACTIVE, the section 6.1 envelope signed with its secret', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const endpoint = await ok('webhooks/create', { url: receiver.url, event_types: ['CUSTOMER_CREATED'] });
    receiver.setSecrets([endpoint.secret]);

    const before = await customer();
    await dispatched((await eventOf(before.id)).id);
    expect(await platform.db.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(0);

    await ok('webhooks/patch', { id: endpoint.id, status: 'ACTIVE' });
    endpointsOfTest.push(endpoint.id);
    const created = await customer({ first_name: 'Zoë', metadata: { note: 'ünïcödé ✓' } });
    const event = await eventOf(created.id);
    await waitFor('the delivery', () => receiver.processed.length === 1);

    const [request] = receiver.requests;
    expect(request!.outcome).toBe('PROCESSED');
    expect(JSON.parse(request!.body.toString('utf8'))).toEqual({
      event_id: event.id,
      event_type: 'CUSTOMER_CREATED',
      occurred_at: created.created_at,
      data: { customer: created },
    });
    expect(request!.signature).toBe(computeSignature(endpoint.secret, request!.body));
    const changed = Buffer.from(request!.body);
    changed[changed.length - 2] = changed[changed.length - 2]! ^ 0x20;
    expect(verifySignature(changed, request!.signature, [endpoint.secret])).toBe(false);
    expect(receiver.requests.every((r) => r.eventId !== (before as { id: string }).id)).toBe(true);

    const delivery = await deliveryAfter(event.id, endpoint.id, 1);
    expect(await deliveriesOf({ endpoint_id: endpoint.id })).toEqual([delivery]);
    expect(delivery).toMatchObject({
      id: expect.stringMatching(/^whdl_/),
      endpoint_id: endpoint.id,
      event_id: event.id,
      event_type: 'CUSTOMER_CREATED',
      status: 'SUCCEEDED',
      attempt_count: 1,
      attempts: [{ id: expect.stringMatching(/^what_/), attempt: 1, status: 'SUCCEEDED', response_status: 200, duration_ms: expect.any(Number) }],
    });
    expect(delivery).not.toHaveProperty('next_attempt_at');
  });

  it('delivers only the subscribed types, and to a channel endpoint only its channel’s events', async () => {
    const [one, two] = platform.channelIds;
    const all = await activeEndpoint(['CUSTOMER_CREATED']);
    const ofTwo = await activeEndpoint(['CUSTOMER_CREATED', 'CUSTOMER_UPDATED'], { channel_id: two });
    const inOne = await customer({ channel_id: one });
    const inTwo = await customer({ channel_id: two });
    await ok('customers/update', { id: inTwo.id, first_name: 'Renamed' });
    const updated = await eventOf(inTwo.id, 'CUSTOMER_UPDATED');

    await waitFor('both endpoints', () => all.receiver.processed.length === 2 && ofTwo.receiver.processed.length === 2);
    await dispatched(updated.id);
    // Section 6.1: delivery order is not guaranteed.
    const got = (r: TestReceiver) => r.processed.map((e) => `${e.event_type} ${(e.data.customer as { id: string }).id}`).sort();
    expect(got(all.receiver)).toEqual([`CUSTOMER_CREATED ${inOne.id}`, `CUSTOMER_CREATED ${inTwo.id}`].sort());
    expect(got(ofTwo.receiver)).toEqual([`CUSTOMER_CREATED ${inTwo.id}`, `CUSTOMER_UPDATED ${inTwo.id}`]);
  });

  it('retries a 500 and a timeout on the schedule (1 min, then 4 min) and then delivers, processed once', async () => {
    const { receiver, endpoint } = await activeEndpoint();
    receiver.behave(({ count }) => (count === 1 ? { status: 500 } : count === 2 ? { delayMs: 1_500 } : 'ACCEPT'));
    const event = await eventOf((await customer()).id);

    const first = await deliveryAfter(event.id, endpoint.id, 1);
    expect(first).toMatchObject({ status: 'PENDING', attempts: [{ status: 'FAILED', response_status: 500, error: 'HTTP_500' }] });
    expect(Date.parse(first.next_attempt_at) - Date.parse(first.attempts[0].requested_at)).toBe(MINUTE);

    await platform.env.sleep(MINUTE);
    const second = await deliveryAfter(event.id, endpoint.id, 2);
    expect(second.attempts[1]).toMatchObject({ status: 'FAILED', error: expect.stringMatching(/^TIMEOUT/) });
    expect(second.attempts[1]).not.toHaveProperty('response_status');
    expect(Date.parse(second.next_attempt_at) - Date.parse(second.attempts[1].requested_at)).toBe(4 * MINUTE);

    await platform.env.sleep(4 * MINUTE);
    const third = await deliveryAfter(event.id, endpoint.id, 3);
    expect(third).toMatchObject({ status: 'SUCCEEDED', attempt_count: 3, attempts: [{}, {}, { status: 'SUCCEEDED', response_status: 200 }] });
    // The receiver processed the timed-out attempt after the platform gave up on it: the retry is a duplicate.
    await waitFor('the late and the retried request', () => receiver.requests.length === 3);
    expect(receiver.requests.map((r) => r.outcome)).toEqual(['FORCED', 'PROCESSED', 'DUPLICATE']);
    expect(receiver.processed.map((e) => e.event_id)).toEqual([event.id]);
    expect(new Set(receiver.requests.map((r) => r.body.toString('base64'))).size).toBe(1);
  });

  it('processes an event delivered twice (redeliver) once; attempts continue the numbering', async () => {
    const { receiver, endpoint } = await activeEndpoint();
    const event = await eventOf((await customer()).id);
    await deliveryAfter(event.id, endpoint.id, 1);

    const again = await ok('webhooks/redeliver', { event_id: event.id });
    expect(again.items).toMatchObject([{ endpoint_id: endpoint.id, status: 'PENDING' }]);
    const redelivered = await deliveryAfter(event.id, endpoint.id, 2);
    expect(redelivered).toMatchObject({ status: 'SUCCEEDED', attempt_count: 2, attempts: [{ attempt: 1 }, { attempt: 2, status: 'SUCCEEDED' }] });
    await waitFor('the second request', () => receiver.requests.length === 2);
    expect(receiver.requests.map((r) => r.outcome)).toEqual(['PROCESSED', 'DUPLICATE']);
    expect(receiver.requests[0]!.body.equals(receiver.requests[1]!.body)).toBe(true);
    expect(receiver.processed).toHaveLength(1);
  });

  it('redelivers to a named endpoint that never had the event, and refuses while one is in progress', async () => {
    const { receiver, endpoint } = await activeEndpoint(['CUSTOMER_UPDATED']);
    const event = await eventOf((await customer()).id);
    await dispatched(event.id);
    const res = await ok('webhooks/redeliver', { event_id: event.id, endpoint_id: endpoint.id });
    expect(res.items).toMatchObject([{ endpoint_id: endpoint.id, event_type: 'CUSTOMER_CREATED' }]);
    await waitFor('the redelivery', () => receiver.processed.length === 1);

    receiver.behave(() => ({ status: 503 }));
    const failing = await eventOf((await customer()).id);
    await ok('webhooks/redeliver', { event_id: failing.id, endpoint_id: endpoint.id });
    await deliveryAfter(failing.id, endpoint.id, 1);
    const busy = await platform.call('/v2/webhooks/redeliver', { event_id: failing.id, endpoint_id: endpoint.id });
    expect(busy.status).toBe(422);
    expect(busy.body.code).toBe('DELIVERY_IN_PROGRESS');
    await ok('webhooks/patch', { id: endpoint.id, status: 'INACTIVE' });
    const inactive = await platform.call('/v2/webhooks/redeliver', { event_id: failing.id, endpoint_id: endpoint.id });
    expect(inactive.body.code).toBe('ENDPOINT_NOT_ACTIVE');
  });
});

describe('redelivery after a failed commit', () => {
  it('a redelivery rolled back after starting its workflow leaves nothing PENDING; a start refused fails the request; the next one delivers', async () => {
    const { receiver, endpoint } = await activeEndpoint();
    const event = await eventOf((await customer()).id);
    const { id: deliveryId } = await deliveryAfter(event.id, endpoint.id, 1);

    // webhooks/redeliver at one fixed instant, so a second call claims what the first did.
    const at = new Date();
    const fixedClock = buildServer({ db: platform.db, temporal: platform.env.client, rateLimiter: new RateLimiter(() => ({ ratePerSecond: 1000, burst: 1000 })), now: () => at });
    await fixedClock.listen({ port: 0, host: '127.0.0.1' });
    const redeliverAtInstant = async () => {
      const res = await fetch(`http://127.0.0.1:${(fixedClock.server.address() as AddressInfo).port}/v2/webhooks/redeliver`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${platform.rootSecret}` },
        body: JSON.stringify({ event_id: event.id, endpoint_id: endpoint.id }),
      });
      return { status: res.status, body: await res.json() };
    };
    const statusOfDelivery = async () => (await deliveriesOf({ event_id: event.id, endpoint_id: endpoint.id }))[0];
    try {
      // The commit fails after the workflow started: a deferred trigger raises at COMMIT.
      await platform.db.$executeRawUnsafe(`CREATE FUNCTION fail_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'commit refused'; END $$`);
      await platform.db.$executeRawUnsafe(
        `CREATE CONSTRAINT TRIGGER fail_commit AFTER UPDATE ON webhook_deliveries DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.id = '${deliveryId}') EXECUTE FUNCTION fail_commit()`,
      );
      expect((await redeliverAtInstant()).status).toBe(500);
      await platform.db.$executeRawUnsafe('DROP TRIGGER fail_commit ON webhook_deliveries');
      expect(await statusOfDelivery()).toMatchObject({ status: 'SUCCEEDED', attempt_count: 1 });

      // Same instant, same claim: its workflow id is taken, so nothing may be committed PENDING.
      const refused = await redeliverAtInstant();
      expect(refused).toMatchObject({ status: 422, body: { code: 'REDELIVERY_NOT_STARTED', context: { endpoint_id: endpoint.id } } });
      expect(await statusOfDelivery()).toMatchObject({ status: 'SUCCEEDED', attempt_count: 1 });
    } finally {
      await platform.db.$executeRawUnsafe('DROP TRIGGER IF EXISTS fail_commit ON webhook_deliveries');
      await platform.db.$executeRawUnsafe('DROP FUNCTION IF EXISTS fail_commit()');
      await fixedClock.close();
    }

    // Later, the same attempt number: a claim of its own, a workflow of its own.
    expect((await ok('webhooks/redeliver', { event_id: event.id })).items).toMatchObject([{ endpoint_id: endpoint.id, status: 'PENDING' }]);
    expect(await deliveryAfter(event.id, endpoint.id, 2)).toMatchObject({ status: 'SUCCEEDED', attempts: [{ attempt: 1 }, { attempt: 2, status: 'SUCCEEDED' }] });
    await waitFor('the redelivered request', () => receiver.requests.length === 2);
    expect(receiver.requests.map((r) => r.outcome)).toEqual(['PROCESSED', 'DUPLICATE']);
  });
});

describe('channels', () => {
  it('a channel-bound key sees and redelivers the events of its channels only', async () => {
    const [one, two] = platform.channelIds;
    const { receiver, endpoint } = await activeEndpoint(['CUSTOMER_CREATED'], { channel_id: one });
    const key = await ok('api-keys/create', { name: 'shop one', channel_ids: [one], permissions: ['webhooks:list-deliveries', 'webhooks:redeliver'] });
    const mine = await eventOf((await customer({ channel_id: one })).id);
    const theirs = await eventOf((await customer({ channel_id: two })).id);
    await deliveryAfter(mine.id, endpoint.id, 1);
    await dispatched(theirs.id);

    const asBound = (path: string, body: unknown) => platform.call(`/v2/webhooks/${path}`, body, { secret: key.secret });
    expect((await asBound('list-deliveries', { event_id: mine.id })).body.items).toHaveLength(1);
    expect((await asBound('list-deliveries', { event_id: theirs.id })).status).toBe(404);
    expect((await asBound('redeliver', { event_id: theirs.id })).status).toBe(404);
    const outside = await platform.call('/v2/webhooks/redeliver', { event_id: theirs.id, endpoint_id: endpoint.id });
    expect(outside.body.code).toBe('EVENT_OUTSIDE_ENDPOINT_CHANNEL');
    expect((await asBound('redeliver', { event_id: mine.id })).status).toBe(200);
    await waitFor('the redelivery', () => receiver.requests.length === 2);
  });
});

describe('nothing lost, nothing twice', () => {
  it('events committed while the worker is down are delivered when it is back, once each; a lease left by a killed sender expires', async () => {
    const { receiver, endpoint } = await activeEndpoint();
    const committed: string[] = [];
    let leased = '';
    await platform.restartWorker(async () => {
      for (let i = 0; i < 3; i++) committed.push((await eventOf((await customer()).id)).id);
      const rows = await platform.db.outboxEvent.findMany({ where: { id: { in: committed } } });
      expect(rows.map((r) => r.dispatchedAt)).toEqual([null, null, null]);
      // What a worker killed after its dispatch committed and its sender leased a delivery, before the POST, leaves behind.
      await dispatchOutboxBatch(platform.db);
      const now = new Date(await platform.env.currentTimeMs());
      const [claimed] = await claimDueDeliveries(platform.db, {
        now,
        leaseUntil: new Date(now.getTime() + MINUTE),
        endpointCap: 1,
        failingEndpointCap: 1,
        limit: 1,
        held: [],
        answered: [],
      });
      leased = claimed!.id;
    });
    await waitFor('the two unleased events', () => receiver.requests.length >= 2);
    for (const id of committed) await dispatched(id);
    expect(await platform.db.webhookDelivery.findUniqueOrThrow({ where: { id: leased } })).toMatchObject({ status: 'PENDING', attemptCount: 0 });

    await platform.env.sleep(2 * MINUTE);
    await waitFor('the three events', () => receiver.requests.length >= 3);
    expect(receiver.processed.map((e) => e.event_id).sort()).toEqual([...committed].sort());
    expect(receiver.requests).toHaveLength(3);
    expect(await platform.db.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(3);
    await waitFor('the leased delivery recorded', async () => (await platform.db.webhookDelivery.findUniqueOrThrow({ where: { id: leased } })).status === 'SUCCEEDED');
    expect(await platform.db.webhookDeliveryAttempt.count({ where: { deliveryId: leased } })).toBe(1);
  });
});

describe('rotation', () => {
  it('signs with the previous secret during the overlap, with the new one after it', async () => {
    const { receiver, endpoint } = await activeEndpoint();
    const rotated = await ok('webhooks/rotate-key', { id: endpoint.id, rotation_period: 3600 });
    const previous = endpoint.secret;
    const next = rotated.rotate_secret as string;

    // The receiver still knows only the previous secret: it keeps verifying through the overlap.
    await customer();
    await waitFor('a delivery in the overlap', () => receiver.processed.length === 1);
    const during = receiver.requests[0]!;
    expect(verifySignature(during.body, during.signature, [previous])).toBe(true);
    expect(verifySignature(during.body, during.signature, [previous, next])).toBe(true);

    receiver.setSecrets([previous, next]);
    await platform.env.sleep(HOUR + MINUTE);
    await waitFor('the previous secret retired', async () => (await platform.db.webhookEndpointSecret.count({ where: { endpointId: endpoint.id, revokedAt: null } })) === 1);
    expect((await ok('webhooks/get', { id: endpoint.id })).rotate_at).toBeUndefined();

    await customer();
    await waitFor('a delivery after the overlap', () => receiver.processed.length === 2);
    const after = receiver.requests[1]!;
    expect(verifySignature(after.body, after.signature, [next])).toBe(true);
    expect(verifySignature(after.body, after.signature, [previous])).toBe(false);

    // A receiver that dropped the new secret by mistake refuses, and the platform retries.
    receiver.setSecrets([previous]);
    const refused = await eventOf((await customer()).id);
    const attempt = await deliveryAfter(refused.id, endpoint.id, 1);
    expect(attempt.attempts[0]).toMatchObject({ status: 'FAILED', response_status: 401 });
    receiver.setSecrets([next]);
    await platform.env.sleep(MINUTE);
    expect((await deliveryAfter(refused.id, endpoint.id, 2)).status).toBe('SUCCEEDED');
  });
});

describe('endpoints that stop receiving', () => {
  it('deleting an endpoint cancels its pending deliveries: no further attempt', async () => {
    const { receiver, endpoint } = await activeEndpoint();
    receiver.behave(() => ({ status: 500 }));
    const event = await eventOf((await customer()).id);
    await deliveryAfter(event.id, endpoint.id, 1);
    await ok('webhooks/delete', { id: endpoint.id });
    const [cancelled] = await deliveriesOf({ event_id: event.id });
    expect(cancelled).toMatchObject({ endpoint_id: endpoint.id, status: 'CANCELLED', attempt_count: 1 });
    await platform.env.sleep(2 * HOUR);
    const workflow = new Client({ connection: platform.env.connection }).workflow.getHandle(webhookDeliveryWorkflowId(event.id, endpoint.id));
    await waitFor('the delivery workflow to end', async () => (await workflow.describe()).status.name === 'COMPLETED');
    expect(await workflow.result()).toEqual({ status: 'STOPPED', attempts: 2 });
    expect(receiver.requests).toHaveLength(1);
  });

  it('fails a delivery after 10 attempts over ~4 days, disables an endpoint failing for 3 days; patching ACTIVE resumes', async () => {
    const { receiver, endpoint } = await activeEndpoint();
    receiver.behave(() => ({ status: 503 }));
    const event = await eventOf((await customer()).id);
    await deliveryAfter(event.id, endpoint.id, 1);
    // 1 + 4 + 16 + 64 + 256 + 1024 minutes, then 24 h three times: the 10th attempt is 94 h 45 m after the first.
    await platform.env.sleep(94 * HOUR);
    const ninth = await deliveryAfter(event.id, endpoint.id, 9);
    expect(ninth.status).toBe('PENDING');
    expect((await ok('webhooks/get', { id: endpoint.id })).status).toBe('ACTIVE');
    await platform.env.sleep(HOUR);
    const last = await deliveryAfter(event.id, endpoint.id, 10);
    expect(last).toMatchObject({ status: 'FAILED', attempt_count: 10 });
    // Each delay runs from the end of the attempt before it, which takes milliseconds.
    const gaps = last.attempts.slice(1).map((a: { requested_at: string }, i: number) => (Date.parse(a.requested_at) - Date.parse(last.attempts[i].requested_at)) / MINUTE);
    expect(gaps.map(Math.floor)).toEqual([1, 4, 16, 64, 256, 1024, 1440, 1440, 1440]);

    const disabled = await ok('webhooks/get', { id: endpoint.id });
    expect(disabled.status).toBe('DISABLED');
    expect(disabled.disabled_reason).toMatch(/failed from .* to .*; patch status to ACTIVE/);

    const ignored = await eventOf((await customer()).id);
    await dispatched(ignored.id);
    expect(await deliveriesOf({ event_id: ignored.id })).toEqual([]);

    receiver.behave(() => 'ACCEPT');
    const resumed = await ok('webhooks/patch', { id: endpoint.id, status: 'ACTIVE' });
    expect(resumed).not.toHaveProperty('disabled_reason');
    const delivered = await eventOf((await customer()).id);
    expect((await deliveryAfter(delivered.id, endpoint.id, 1)).status).toBe('SUCCEEDED');
  });
});
