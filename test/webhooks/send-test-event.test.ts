import { computeSignature } from '../../domain/webhook-receiver';
import { usePlatform } from '../support/platform';
import { startReceiver, waitFor, type TestReceiver } from './receiver';

/** webhooks/send-test-event (docs/webhooks.md, "Test events"), over HTTP against the real platform and worker. */
const platform = usePlatform();
const receivers: TestReceiver[] = [];

afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

async function ok(path: string, body: unknown) {
  const res = await platform.call(`/v2/${path}`, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A receiver on the kit, knowing the secret of its endpoint, subscribed to CUSTOMER_CREATED only. */
async function endpointWithReceiver(status: 'ACTIVE' | 'INACTIVE' = 'ACTIVE', extra: Record<string, unknown> = {}) {
  const receiver = await startReceiver();
  receivers.push(receiver);
  const endpoint = await ok('webhooks/create', { url: receiver.url, event_types: ['CUSTOMER_CREATED'], ...extra });
  receiver.setSecrets([endpoint.secret]);
  if (status === 'ACTIVE') await ok('webhooks/patch', { id: endpoint.id, status: 'ACTIVE' });
  return { receiver, endpoint: endpoint as { id: string; secret: string } };
}

const deliveryOf = (eventId: string, endpointId: string, status: string) =>
  waitFor(`${status} delivery of ${eventId}`, async () => {
    const [delivery] = (await ok('webhooks/list-deliveries', { endpoint_id: endpointId, event_id: eventId })).items;
    return delivery?.status === status && delivery;
  });

describe('webhooks/send-test-event', () => {
  it('delivers one signed WEBHOOK_TEST event through the sender to this endpoint only; it is in the delivery log and can be redelivered', async () => {
    const { receiver, endpoint } = await endpointWithReceiver();
    const bystander = await endpointWithReceiver();

    const sent = await platform.call('/v2/webhooks/send-test-event', { id: endpoint.id });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ endpoint_id: endpoint.id, event_type: 'WEBHOOK_TEST', status: 'PENDING', attempt_count: 0, attempts: [] });
    const eventId: string = sent.body.event_id;
    expect(eventId).toMatch(/^evt_/);

    // The receiver kit verified the signature (it answers 401 otherwise) and handed the event on.
    const processed = await waitFor('the test event at the receiver', () => receiver.processed.find((e) => e.event_id === eventId));
    expect(processed).toMatchObject({ event_type: 'WEBHOOK_TEST', data: { webhook_endpoint_id: endpoint.id } });
    expect(processed.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    const request = receiver.requests.find((r) => r.eventId === eventId)!;
    expect(request.status).toBe(200);
    expect(request.signature).toBe(computeSignature(endpoint.secret, request.body));

    const delivered = await deliveryOf(eventId, endpoint.id, 'SUCCEEDED');
    expect(delivered).toMatchObject({ id: sent.body.id, event_type: 'WEBHOOK_TEST', attempt_count: 1 });
    expect(delivered.attempts).toEqual([expect.objectContaining({ attempt: 1, status: 'SUCCEEDED', response_status: 200 })]);

    // Not fanned out: the dispatcher saw it dispatched already, the other ACTIVE endpoint of the account got nothing.
    expect(await platform.db.webhookDelivery.count({ where: { eventId } })).toBe(1);
    expect(bystander.receiver.requests).toHaveLength(0);

    const redelivered = await platform.call('/v2/webhooks/redeliver', { event_id: eventId });
    expect(redelivered.status).toBe(200);
    expect(redelivered.body.items.map((d: { endpoint_id: string }) => d.endpoint_id)).toEqual([endpoint.id]);
    await waitFor('the redelivery', () => receiver.requests.filter((r) => r.eventId === eventId).length === 2);
    const again = receiver.requests.filter((r) => r.eventId === eventId)[1]!;
    expect(again.body.equals(request.body)).toBe(true);
    expect((await deliveryOf(eventId, endpoint.id, 'SUCCEEDED')).attempt_count).toBe(2);
  });

  it('refuses an endpoint that is not ACTIVE with 422 ENDPOINT_NOT_ACTIVE and records nothing', async () => {
    const { receiver, endpoint } = await endpointWithReceiver('INACTIVE');
    const eventsBefore = await platform.db.outboxEvent.count({ where: { eventType: 'WEBHOOK_TEST' } });
    const refused = await platform.call('/v2/webhooks/send-test-event', { id: endpoint.id });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'ENDPOINT_NOT_ACTIVE', context: { status: 'INACTIVE' } });
    expect(await platform.db.outboxEvent.count({ where: { eventType: 'WEBHOOK_TEST' } })).toBe(eventsBefore);
    expect(await platform.db.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(0);
    expect(receiver.requests).toHaveLength(0);
  });

  it('permissions and visibility: webhooks:send-test-event; a channel-bound key sees its channels’ endpoints only (404)', async () => {
    const { endpoint } = await endpointWithReceiver('ACTIVE', { channel_id: platform.channelIds[1] });
    const key = async (permissions: string[], channelIds?: string[]) =>
      (await ok('api-keys/create', { name: 'tester', permissions, ...(channelIds ? { channel_ids: channelIds } : {}) })).secret as string;

    const denied = await platform.call('/v2/webhooks/send-test-event', { id: endpoint.id }, { secret: await key(['webhooks:get']) });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'PERMISSION_DENIED', context: { required_permission: 'webhooks:send-test-event' } });

    const otherChannel = await platform.call('/v2/webhooks/send-test-event', { id: endpoint.id }, { secret: await key(['webhooks:send-test-event'], [platform.channelIds[0]]) });
    expect(otherChannel.status).toBe(404);

    const sameChannel = await platform.call('/v2/webhooks/send-test-event', { id: endpoint.id }, { secret: await key(['webhooks:send-test-event'], [platform.channelIds[1]]) });
    expect(sameChannel.status).toBe(200);
    const event = await platform.db.outboxEvent.findUniqueOrThrow({ where: { id: sameChannel.body.event_id } });
    expect(event.channelId).toBe(platform.channelIds[1]);
  });

  it('validation: 400 with the field in context.constraints; 404 for an unknown endpoint', async () => {
    const missing = await platform.call('/v2/webhooks/send-test-event', {});
    expect(missing.status).toBe(400);
    expect(missing.body.context.constraints.id.type).toBe('REQUIRED');

    const wrongPrefix = await platform.call('/v2/webhooks/send-test-event', { id: 'evt_0123' });
    expect(wrongPrefix.status).toBe(400);
    expect(wrongPrefix.body.context.constraints.id).toBeDefined();

    const extra = await platform.call('/v2/webhooks/send-test-event', { id: 'whep_0123', event_type: 'INVOICE_PAID' });
    expect(extra.status).toBe(400);
    expect(extra.body.context.constraints.event_type.type).toBe('UNKNOWN_FIELD');

    const unknown = await platform.call('/v2/webhooks/send-test-event', { id: 'whep_01jzzzzzzzzzzzzzzzzzzzzzzz' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
  });

  it('sends one event per Idempotency-Key: a retried request replays the same delivery', async () => {
    const { endpoint } = await endpointWithReceiver();
    const headers = { 'idempotency-key': `test-event-${endpoint.id}` };
    const first = await platform.call('/v2/webhooks/send-test-event', { id: endpoint.id }, { headers });
    const second = await platform.call('/v2/webhooks/send-test-event', { id: endpoint.id }, { headers });
    expect(first.status).toBe(200);
    expect(second.body).toEqual(first.body);
    expect(await platform.db.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(1);
  });
  it('takes at most 10 test events per endpoint a minute: then 429 RATE_LIMIT with next_try_at and Retry-After, nothing recorded', async () => {
    const { endpoint } = await endpointWithReceiver();
    const other = await endpointWithReceiver();
    const send = (id: string) => platform.call('/v2/webhooks/send-test-event', { id });
    for (let i = 0; i < 10; i++) expect((await send(endpoint.id)).status).toBe(200);

    const refused = await send(endpoint.id);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      code: 'RATE_LIMIT',
      message: `Webhook endpoint ${endpoint.id} took 10 test events in the last minute, the most it takes; retry at ${refused.body.context.next_try_at}.`,
      context: { next_try_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/) },
    });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(Math.abs(Date.parse(refused.body.context.next_try_at) - (Date.now() + retryAfter * 1000))).toBeLessThan(2_000);
    expect(await platform.db.webhookDelivery.count({ where: { endpointId: endpoint.id } })).toBe(10);

    // Per endpoint: another endpoint of the same account is not held back.
    expect((await send(other.endpoint.id)).status).toBe(200);

    // A minute after the first ones, the endpoint takes test events again.
    await platform.db.webhookDelivery.updateMany({ where: { endpointId: endpoint.id }, data: { createdAt: new Date(Date.now() - 61_000) } });
    expect((await send(endpoint.id)).status).toBe(200);
  });
});
