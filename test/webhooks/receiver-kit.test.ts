import { createHmac } from 'node:crypto';
import {
  computeSignature,
  createWebhookReceiver,
  DEDUPLICATION_TTL_MS,
  MemoryEventIdStore,
  REPLAY_WINDOW_MS,
  verifySignature,
  type WebhookEvent,
} from '../../domain/webhook-receiver';
import { formatDateTime } from '../../domain/datetime';

const OLD = 'wsec_previous-secret';
const NEW = 'wsec_new-secret';
const NOW = Date.parse('2026-11-21T12:00:00.000Z');

function delivery(overrides: Partial<WebhookEvent> = {}, secret = NEW) {
  const body = Buffer.from(
    JSON.stringify({ event_id: 'evt_1', event_type: 'CUSTOMER_CREATED', occurred_at: formatDateTime(new Date(NOW - 1_000)), data: { customer: { id: 'cust_1' } }, ...overrides }),
  );
  return { body, headers: { signature: computeSignature(secret, body) } };
}

function receiver(options: { secrets?: string[]; now?: () => number; onEvent?: (e: WebhookEvent) => unknown } = {}) {
  const seen: WebhookEvent[] = [];
  const store = new MemoryEventIdStore(options.now ?? (() => NOW));
  const kit = createWebhookReceiver({
    secrets: options.secrets ?? [NEW],
    store,
    now: options.now ?? (() => NOW),
    onEvent: options.onEvent ?? ((event) => void seen.push(event)),
  });
  return { kit, seen, store };
}

describe('signature (section 5.3)', () => {
  it('is the Base64 of the raw HMAC-SHA256 digest of the body bytes, keyed with the wsec_ secret', () => {
    const body = '{"event_id":"evt_1"}';
    expect(computeSignature(NEW, body)).toBe(createHmac('sha256', NEW).update(body).digest('base64'));
    expect(Buffer.from(computeSignature(NEW, body), 'base64')).toHaveLength(32);
  });

  it('fails when any single byte of the body changes', () => {
    const { body, headers } = delivery();
    expect(verifySignature(body, headers.signature, [NEW])).toBe(true);
    for (let i = 0; i < body.length; i++) {
      const changed = Buffer.from(body);
      changed[i] = changed[i]! ^ 0x01;
      expect(verifySignature(changed, headers.signature, [NEW])).toBe(false);
    }
  });

  it('fails for another secret, a missing, truncated or non-Base64 header', () => {
    const { body, headers } = delivery();
    expect(verifySignature(body, headers.signature, [OLD])).toBe(false);
    expect(verifySignature(body, undefined, [NEW])).toBe(false);
    expect(verifySignature(body, headers.signature.slice(0, 20), [NEW])).toBe(false);
    expect(verifySignature(body, 'not base64 at all!', [NEW])).toBe(false);
    expect(verifySignature(body, headers.signature, [])).toBe(false);
  });

  it('accepts a signature by any of several secrets (rotation overlap)', () => {
    const signedByOld = delivery({}, OLD);
    const signedByNew = delivery({}, NEW);
    expect(verifySignature(signedByOld.body, signedByOld.headers.signature, [OLD, NEW])).toBe(true);
    expect(verifySignature(signedByNew.body, signedByNew.headers.signature, [OLD, NEW])).toBe(true);
    expect(verifySignature(signedByOld.body, signedByOld.headers.signature, [NEW])).toBe(false);
  });
});

describe('createWebhookReceiver().handle(rawBody, headers)', () => {
  it('processes a valid delivery and answers 200', async () => {
    const { kit, seen } = receiver();
    const { body, headers } = delivery();
    expect(await kit.handle(body, headers)).toMatchObject({ status: 200, outcome: 'PROCESSED', event: { event_id: 'evt_1' } });
    expect(seen.map((e) => e.event_id)).toEqual(['evt_1']);
  });

  it('finds the header whatever its case, in plain objects and fetch Headers', async () => {
    const { kit, seen } = receiver();
    const a = delivery({ event_id: 'evt_a' });
    const b = delivery({ event_id: 'evt_b' });
    expect((await kit.handle(a.body, { SIGNATURE: a.headers.signature })).status).toBe(200);
    expect((await kit.handle(b.body, new Headers({ Signature: b.headers.signature }))).status).toBe(200);
    expect(seen).toHaveLength(2);
  });

  it('rejects a changed body with 401 and does not process it', async () => {
    const { kit, seen } = receiver();
    const { body, headers } = delivery();
    const tampered = Buffer.from(body.toString('utf8').replace('cust_1', 'cust_2'));
    expect(await kit.handle(tampered, headers)).toEqual({ status: 401, outcome: 'INVALID_SIGNATURE' });
    expect(seen).toHaveLength(0);
  });

  it('verifies the bytes as received, not a re-serialisation of them', async () => {
    const { kit } = receiver();
    const body = Buffer.from('{ "event_id" : "evt_ws", "event_type":"CUSTOMER_CREATED","occurred_at":"' + formatDateTime(new Date(NOW)) + '","data":{} }');
    expect((await kit.handle(body, { signature: computeSignature(NEW, body) })).outcome).toBe('PROCESSED');
  });

  it('rejects occurred_at older than 5 minutes (replay protection)', async () => {
    const { kit, seen } = receiver();
    const fresh = delivery({ event_id: 'evt_fresh', occurred_at: formatDateTime(new Date(NOW - REPLAY_WINDOW_MS)) });
    const stale = delivery({ event_id: 'evt_stale', occurred_at: formatDateTime(new Date(NOW - REPLAY_WINDOW_MS - 1)) });
    expect((await kit.handle(fresh.body, fresh.headers)).outcome).toBe('PROCESSED');
    expect(await kit.handle(stale.body, stale.headers)).toMatchObject({ status: 400, outcome: 'STALE' });
    expect(seen.map((e) => e.event_id)).toEqual(['evt_fresh']);
  });

  it('processes the same event_id once and acknowledges the duplicate with 200', async () => {
    const { kit, seen } = receiver();
    const { body, headers } = delivery();
    await kit.handle(body, headers);
    expect(await kit.handle(body, headers)).toMatchObject({ status: 200, outcome: 'DUPLICATE' });
    expect(seen).toHaveLength(1);
  });

  it('remembers event ids for 7 days, then forgets them', async () => {
    let now = NOW;
    const store = new MemoryEventIdStore(() => now);
    expect(await store.remember('evt_1', DEDUPLICATION_TTL_MS)).toBe(true);
    now += DEDUPLICATION_TTL_MS - 1;
    expect(await store.remember('evt_1', DEDUPLICATION_TTL_MS)).toBe(false);
    now += 1;
    expect(await store.remember('evt_1', DEDUPLICATION_TTL_MS)).toBe(true);
  });

  it('sweeps expired ids so memory stays bounded by the TTL', async () => {
    let now = NOW;
    const store = new MemoryEventIdStore(() => now);
    for (let i = 0; i < 100; i++) await store.remember(`evt_${i}`, 1_000);
    expect(store.size).toBe(100);
    now += 61_000;
    await store.remember('evt_late', 1_000);
    expect(store.size).toBe(1);
  });

  it('answers 500 and forgets the id when the handler throws, so the retry is processed', async () => {
    let fail = true;
    const seen: string[] = [];
    const { kit } = receiver({
      onEvent: (event) => {
        if (fail) throw new Error('queue down');
        seen.push(event.event_id);
      },
    });
    const { body, headers } = delivery();
    expect(await kit.handle(body, headers)).toMatchObject({ status: 500, outcome: 'HANDLER_FAILED' });
    fail = false;
    expect((await kit.handle(body, headers)).outcome).toBe('PROCESSED');
    expect(seen).toEqual(['evt_1']);
  });

  it('rejects a correctly signed body that is not an event envelope with 400', async () => {
    const { kit } = receiver();
    for (const text of ['not json', '[]', '{"event_id":"evt_1"}', '{"event_id":"evt_1","event_type":"X","occurred_at":"yesterday","data":{}}']) {
      const body = Buffer.from(text);
      expect(await kit.handle(body, { signature: computeSignature(NEW, body) })).toEqual({ status: 400, outcome: 'MALFORMED' });
    }
  });

  it('reads the secrets at every request, so a rotation needs no restart', async () => {
    let secrets = [OLD];
    const kit = createWebhookReceiver({ secrets: () => secrets, store: new MemoryEventIdStore(), now: () => NOW, onEvent: () => undefined });
    const a = delivery({ event_id: 'evt_a' }, NEW);
    expect((await kit.handle(a.body, a.headers)).status).toBe(401);
    secrets = [OLD, NEW];
    expect((await kit.handle(a.body, a.headers)).status).toBe(200);
  });
});
