import { mkdtempSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client as TemporalClient } from '@temporalio/client';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { RateLimiter } from '../../api/rate-limit/token-bucket';
import { registerV1Routes, type RestoreSubscription } from '../../api/v1/routes';
import { ApiError } from '../../domain/errors';
import { openSecret } from '../../domain/secret-box';
import { computeV1Signature, V1_SECRET_PURPOSE } from '../../domain/v1-signature';
import { createAccount } from '../../scripts/operator/accounts';
import { issueV1Secret, operatorSecretsKey, revokeV1Secret } from '../../scripts/operator/v1-secrets';
import { createTestDatabase, type TestDatabase } from '../support/database';

/**
 * The v1 transport on its own: the real database and secret sealing, a recording stand-in for
 * restoreSubscription (test/subscription-restore/restore.test.ts drives the real one).
 */

const NOW = new Date('2027-03-10T12:00:00.000Z');
const SUBSCRIPTION = 'subs_01jz0000000000000000000000';
const COUPON_ID = '0190f3a8-7c1e-7a2b-8c3d-4e5f6a7b8c9d';

type RestoreInput = Parameters<RestoreSubscription>[1];

let database: TestDatabase;
let app: FastifyInstance;
let baseUrl: string;
let accountId: string;
let secret: string;
let calls: RestoreInput[];
let outcome: () => Promise<void>;

beforeAll(async () => {
  process.env.SECRETS_KEY ??= randomBytes(32).toString('hex');
  database = await createTestDatabase();
  accountId = (await createAccount(database.db, 'v1 merchant')).id;
  secret = (await issueV1Secret(database.db, accountId, operatorSecretsKey())).secret;
  app = Fastify({ bodyLimit: 2048 });
  registerV1Routes(app, {
    db: database.db,
    temporal: {} as TemporalClient,
    rateLimiter: new RateLimiter((operation) =>
      operation === 'v1:subscription-restore' ? { ratePerSecond: 0.001, burst: 1000 } : { ratePerSecond: 1, burst: 1 },
    ),
    now: () => NOW,
    restore: async (_deps, input) => {
      calls.push(input);
      await outcome();
    },
  });
  baseUrl = await listen(app);
});

beforeEach(async () => {
  calls = [];
  outcome = async () => undefined;
  // Tests here send the same bodies as one another; replays have their own tests below.
  await database.db.v1RestoreRequest.deleteMany();
});

afterAll(async () => {
  await app?.close();
  await database?.drop();
});

/** Over a real socket: Fastify's inject() loads an ES module jest cannot require. */
async function listen(server: FastifyInstance): Promise<string> {
  await server.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
}

async function post(url: string, headers: Record<string, string>, payload: Buffer | string) {
  const response = await fetch(`${url}/subscription/restore`, { method: 'POST', headers, body: payload });
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

interface Sent {
  merchant?: string | null;
  signature?: string | null;
  /** Signs these bytes instead of the body, to send a signature that does not match. */
  signedBody?: string | Buffer;
  contentType?: string;
}

async function restore(body: string | Buffer | object, options: Sent = {}) {
  const raw = typeof body === 'string' || Buffer.isBuffer(body) ? Buffer.from(body) : Buffer.from(JSON.stringify(body));
  const headers: Record<string, string> = { 'content-type': options.contentType ?? 'application/json' };
  const merchant = options.merchant === undefined ? accountId : options.merchant;
  if (merchant !== null) headers.merchant = merchant;
  const signature = options.signature === undefined ? computeV1Signature(secret, options.signedBody ?? raw) : options.signature;
  if (signature !== null) headers.signature = signature;
  return post(baseUrl, headers, raw);
}

describe('signature', () => {
  it('restores with a correct signature: 200 {"status":"ok"}', async () => {
    const res = await restore({ subscription_id: SUBSCRIPTION });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(calls).toEqual([{ accountId, subscriptionId: SUBSCRIPTION }]);
  });

  it('answers 401 1.01 to a wrong signature and restores nothing', async () => {
    const res = await restore({ subscription_id: SUBSCRIPTION }, { signature: computeV1Signature(`${secret}x`, JSON.stringify({ subscription_id: SUBSCRIPTION })) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: { code: '1.01', message: expect.stringContaining('Authorization failed') } });
    expect(calls).toEqual([]);
  });

  it('verifies the bytes as sent: the same JSON spaced differently does not match', async () => {
    const sent = '{"subscription_id": "subs_01jz0000000000000000000000"}';
    const res = await restore(sent, { signedBody: JSON.stringify(JSON.parse(sent)) });
    expect(res.status).toBe(401);
    expect((await restore(sent)).status).toBe(200);
  });

  it('verifies bytes that are not valid UTF-8 as they are, before any decoding', async () => {
    const bytes = Buffer.concat([Buffer.from('{"subscription_id":"subs_01jz0000000000000000000000","coupon_code":"'), Buffer.from([0xff]), Buffer.from('"}')]);
    const signedRight = await restore(bytes);
    expect(signedRight.status).toBe(400);
    expect(signedRight.body.error.code).toBe('2.01');
    const signedDecoded = await restore(bytes, { signedBody: bytes.toString('utf8') });
    expect(signedDecoded.status).toBe(401);
  });

  it('gives one answer for a missing or unknown merchant and a missing or wrong signature', async () => {
    const body = { subscription_id: SUBSCRIPTION };
    const answers = await Promise.all([
      restore(body, { merchant: null }),
      restore(body, { signature: null }),
      restore(body, { merchant: 'acct_01jz0000000000000000000000' }),
      restore(body, { merchant: 'x'.repeat(500) }),
      restore(body, { signature: 'not base64' }),
      restore(body, { signedBody: '{}' }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual(answers[0]!.body);
    }
    expect(calls).toEqual([]);
  });

  it('accepts any content type: the bytes are what is signed', async () => {
    const res = await restore({ subscription_id: SUBSCRIPTION }, { contentType: 'text/plain' });
    expect(res.status).toBe(200);
  });

  it('answers 403 1.02 to an account without a v1 secret, whatever the signature', async () => {
    const other = await createAccount(database.db, 'not on v1');
    const res = await restore({ subscription_id: SUBSCRIPTION }, { merchant: other.id });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('1.02');
    expect(res.body.error.message).toContain('not enabled');
    expect(calls).toEqual([]);
  });
});

describe('authentication comes before the body', () => {
  it('a wrong signature is 401 even when the body is invalid or not JSON', async () => {
    expect((await restore({ coupon_id: 'nope' }, { signature: computeV1Signature(secret, 'other') })).status).toBe(401);
    expect((await restore('{"subscription_id":', { signature: computeV1Signature(secret, 'other') })).status).toBe(401);
  });

  it('a correctly signed body that is not JSON, or empty, is 400 2.01', async () => {
    const malformed = await restore('{"subscription_id":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: { code: '2.01', message: 'The request body is not valid JSON.' } });
    const empty = await restore('');
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('2.01');
  });
});

describe('validation: 400 2.01 naming the field', () => {
  it.each([
    ['a missing subscription_id', {}, 'subscription_id is required.'],
    ['a subscription_id of another kind', { subscription_id: 'inv_01jz' }, 'subscription_id'],
    ['expired_at in ISO form', { subscription_id: SUBSCRIPTION, expired_at: '2027-04-01T10:00:00Z' }, 'expired_at'],
    ['expired_at that the calendar lacks', { subscription_id: SUBSCRIPTION, expired_at: '2027-02-30 10:00:00' }, 'expired_at'],
    ['expired_at as a number', { subscription_id: SUBSCRIPTION, expired_at: 1_800_000_000 }, 'expired_at'],
    ['both coupon_id and coupon_code', { subscription_id: SUBSCRIPTION, coupon_id: COUPON_ID, coupon_code: 'WELCOME' }, 'not both'],
    ['a coupon_id that is not a UUID', { subscription_id: SUBSCRIPTION, coupon_id: 'WELCOME' }, 'coupon_id'],
    ['an unknown field', { subscription_id: SUBSCRIPTION, coupon: 'WELCOME' }, 'Unknown field `coupon`'],
    ['an array body', [SUBSCRIPTION], 'body'],
    ['a subscription_id holding U+0000', { subscription_id: 'subs_01jz\u0000' }, 'subscription_id'],
    ['a coupon_code with an unpaired surrogate', { subscription_id: SUBSCRIPTION, coupon_code: 'WELCOME\ud800' }, 'coupon_code'],
  ])('%s', async (_name, body, fragment) => {
    const res = await restore(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('2.01');
    expect(res.body.error.message).toContain(fragment);
    expect(calls).toEqual([]);
  });

  it('refuses a body over the limit with 400 2.01', async () => {
    const res = await restore({ subscription_id: SUBSCRIPTION, coupon_code: 'x'.repeat(4000) });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({ code: '2.01', message: 'The request body exceeds 2048 bytes.' });
  });
});

describe('what reaches restoreSubscription', () => {
  it('a future expired_at, read as UTC', async () => {
    await restore({ subscription_id: SUBSCRIPTION, expired_at: '2027-04-01 10:30:00' });
    expect(calls[0]!.expiresAt?.toISOString()).toBe('2027-04-01T10:30:00.000Z');
  });

  it('a past expired_at becomes now', async () => {
    await restore({ subscription_id: SUBSCRIPTION, expired_at: '2027-03-10 11:59:59' });
    expect(calls[0]!.expiresAt).toEqual(NOW);
  });

  it('coupon_id or coupon_code, and nulls as if absent', async () => {
    await restore({ subscription_id: SUBSCRIPTION, coupon_id: COUPON_ID.toUpperCase() });
    await restore({ subscription_id: SUBSCRIPTION, coupon_code: 'WELCOME' });
    await restore({ subscription_id: SUBSCRIPTION, coupon_id: null, coupon_code: 'SPRING', expired_at: null });
    expect(calls.map((c) => c.coupon)).toEqual([{ id: COUPON_ID }, { code: 'WELCOME' }, { code: 'SPRING' }]);
    expect(calls[2]).not.toHaveProperty('expiresAt');
  });
});

describe('outcomes of restoreSubscription', () => {
  it('an unknown subscription is 404 2.01 naming it', async () => {
    outcome = async () => {
      throw ApiError.notFound('Subscription', SUBSCRIPTION);
    };
    const res = await restore({ subscription_id: SUBSCRIPTION });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: { code: '2.01', message: `Subscription ${SUBSCRIPTION} does not exist.` } });
  });

  it('an unknown coupon is 404 2.01 too', async () => {
    outcome = async () => {
      throw new ApiError('COUPON_NOT_FOUND', 'Coupon WELCOME does not exist.');
    };
    const res = await restore({ subscription_id: SUBSCRIPTION, coupon_code: 'WELCOME' });
    expect(res.status).toBe(404);
    expect(res.body.error).toEqual({ code: '2.01', message: 'Coupon WELCOME does not exist.' });
  });

  it('a refusal by the rules is 200 with status error, code 2.01 and the v2 code as reason', async () => {
    outcome = async () => {
      throw new ApiError('INCOMPATIBLE_STATUS', 'Only a CANCELLED subscription can be restored; this one is ACTIVE.');
    };
    const res = await restore({ subscription_id: SUBSCRIPTION });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'error',
      error: { code: '2.01', message: 'Only a CANCELLED subscription can be restored; this one is ACTIVE.', reason: 'INCOMPATIBLE_STATUS' },
    });
  });

  it('anything unexpected is 500 9.01 with a fixed message', async () => {
    outcome = async () => {
      throw new Error('connection reset by peer at 10.0.0.7');
    };
    const res = await restore({ subscription_id: SUBSCRIPTION });
    expect(res.status).toBe(500);
    expect(res.body.error.code).toBe('9.01');
    expect(JSON.stringify(res.body)).not.toContain('10.0.0.7');
  });
});

describe('rate limit per merchant', () => {
  it('answers 429 1.03 with retry-after once the merchant bucket is empty; others and forgers are not counted', async () => {
    const limited = Fastify();
    const merchant = (await createAccount(database.db, 'busy')).id;
    const merchantSecret = (await issueV1Secret(database.db, merchant, operatorSecretsKey())).secret;
    registerV1Routes(limited, {
      db: database.db,
      temporal: {} as TemporalClient,
      rateLimiter: new RateLimiter(() => ({ ratePerSecond: 0.5, burst: 2 })),
      now: () => NOW,
      restore: async () => undefined,
    });
    const limitedUrl = await listen(limited);
    let sent = 0;
    const send = (account: string, key: string, signature?: string) => {
      // Different bytes each time, so none is refused as a replay.
      const payload = JSON.stringify({ subscription_id: SUBSCRIPTION, coupon_code: `CODE${sent++}` });
      return post(limitedUrl, { merchant: account, signature: signature ?? computeV1Signature(key, payload) }, payload);
    };
    try {
      for (let i = 0; i < 5; i++) expect((await send(merchant, merchantSecret, 'forged')).status).toBe(401);
      expect((await send(merchant, merchantSecret)).status).toBe(200);
      expect((await send(merchant, merchantSecret)).status).toBe(200);
      const refused = await send(merchant, merchantSecret);
      expect(refused.status).toBe(429);
      expect(refused.body.error).toEqual({ code: '1.03', message: 'Too many restore requests for this merchant; retry at 2027-03-10T12:00:02.000000Z.' });
      expect(refused.headers.get('retry-after')).toBe('2');
      expect((await send(accountId, secret)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('replays: the same bytes from the same merchant are accepted once in 24 hours', () => {
  const REPLAYED = { code: '2.01', message: expect.stringContaining('already received') };

  /** Another process on the same database, with its own clock and quota. */
  async function secondProcess(options: { now: () => Date; quota?: { ratePerSecond: number; burst: number } }) {
    const other = Fastify();
    registerV1Routes(other, {
      db: database.db,
      temporal: {} as TemporalClient,
      rateLimiter: new RateLimiter(() => options.quota ?? { ratePerSecond: 1000, burst: 1000 }),
      now: options.now,
      restore: async (_deps, input) => {
        calls.push(input);
        await outcome();
      },
    });
    return { url: await listen(other), close: () => other.close() };
  }

  function signed(raw: string, key = secret, merchant = accountId) {
    return { headers: { merchant, signature: computeV1Signature(key, raw) }, raw };
  }

  it('refuses a byte-identical request with 400 2.01 without restoring again; other bytes of the same JSON pass', async () => {
    const first = await restore({ subscription_id: SUBSCRIPTION, coupon_code: 'WELCOME' });
    expect(first.body).toEqual({ status: 'ok' });
    const replayed = await restore({ subscription_id: SUBSCRIPTION, coupon_code: 'WELCOME' });
    expect(replayed.status).toBe(400);
    expect(replayed.body).toEqual({ error: REPLAYED });
    expect(calls).toHaveLength(1);

    // The merchant can send the same restore again: other bytes, signed with its secret.
    const reordered = await restore('{"coupon_code":"WELCOME","subscription_id":"subs_01jz0000000000000000000000"}');
    expect(reordered.body).toEqual({ status: 'ok' });
    expect(calls).toHaveLength(2);
  });

  it('is remembered in PostgreSQL: another process refuses the replay, another merchant’s same bytes pass', async () => {
    const raw = JSON.stringify({ subscription_id: SUBSCRIPTION, expired_at: '2027-05-01 00:00:00' });
    const other = await secondProcess({ now: () => NOW });
    try {
      expect((await restore(raw)).body).toEqual({ status: 'ok' });
      const elsewhere = signed(raw);
      const replayed = await post(other.url, elsewhere.headers, elsewhere.raw);
      expect(replayed.status).toBe(400);
      expect(replayed.body).toEqual({ error: REPLAYED });

      const merchant = (await createAccount(database.db, 'same bytes')).id;
      const merchantSecret = (await issueV1Secret(database.db, merchant, operatorSecretsKey())).secret;
      const theirs = signed(raw, merchantSecret, merchant);
      expect((await post(other.url, theirs.headers, theirs.raw)).body).toEqual({ status: 'ok' });
      expect(calls.map((c) => c.accountId)).toEqual([accountId, merchant]);
    } finally {
      await other.close();
    }
  });

  it('lets only one of concurrent identical requests through', async () => {
    const raw = JSON.stringify({ subscription_id: SUBSCRIPTION, coupon_code: 'RACE' });
    const other = await secondProcess({ now: () => NOW });
    try {
      const request = signed(raw);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => post(i % 2 === 0 ? baseUrl : other.url, request.headers, request.raw)),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      expect(answers.filter((a) => a.status === 400 && a.body.error.message.includes('already received'))).toHaveLength(7);
      expect(calls).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it.each([
    ['refused by the rules (200 status error)', async () => Promise.reject(new ApiError('INCOMPATIBLE_STATUS', 'Not CANCELLED.')), 200],
    ['naming an unknown subscription (404)', async () => Promise.reject(ApiError.notFound('Subscription', SUBSCRIPTION)), 404],
    ['failing unexpectedly (500)', async () => Promise.reject(new Error('boom')), 500],
  ])('counts a request %s as seen: its replay cannot run once the state changed', async (_name, failure, status) => {
    outcome = failure;
    const body = { subscription_id: SUBSCRIPTION, coupon_code: `FAILED${status}` };
    expect((await restore(body)).status).toBe(status);
    outcome = async () => undefined;
    const replayed = await restore(body);
    expect(replayed.status).toBe(400);
    expect(replayed.body).toEqual({ error: REPLAYED });
    expect(calls).toHaveLength(1);
  });

  it('counts an invalid body as seen too, but not a request that failed authentication', async () => {
    expect((await restore({ subscription_id: 'nope' })).status).toBe(400);
    expect((await restore({ subscription_id: 'nope' })).body).toEqual({ error: REPLAYED });

    const body = { subscription_id: SUBSCRIPTION, coupon_code: 'FORGED' };
    // A forger sending the bytes first must not block the merchant's own request.
    expect((await restore(body, { signature: computeV1Signature(`${secret}x`, JSON.stringify(body)) })).status).toBe(401);
    expect((await restore(body)).body).toEqual({ status: 'ok' });
  });

  it('does not count a request refused by the rate limit: its retry goes through, and replays take no quota', async () => {
    let clock = NOW;
    const limited = await secondProcess({ now: () => clock, quota: { ratePerSecond: 1, burst: 1 } });
    try {
      const first = signed(JSON.stringify({ subscription_id: SUBSCRIPTION, coupon_code: 'FIRST' }));
      const second = signed(JSON.stringify({ subscription_id: SUBSCRIPTION, coupon_code: 'SECOND' }));
      expect((await post(limited.url, first.headers, first.raw)).status).toBe(200);
      expect((await post(limited.url, second.headers, second.raw)).status).toBe(429);
      clock = new Date(NOW.getTime() + 1_000);
      // The replay of the first is refused before the bucket, which stays full for the retry.
      expect((await post(limited.url, first.headers, first.raw)).status).toBe(400);
      expect((await post(limited.url, second.headers, second.raw)).body).toEqual({ status: 'ok' });
      expect(calls.map((c) => c.coupon)).toEqual([{ code: 'FIRST' }, { code: 'SECOND' }]);
    } finally {
      await limited.close();
    }
  });

  it('accepts the same bytes again once 24 hours have passed', async () => {
    let clock = NOW;
    const later = await secondProcess({ now: () => clock });
    try {
      const request = signed(JSON.stringify({ subscription_id: SUBSCRIPTION, coupon_code: 'TOMORROW' }));
      expect((await post(later.url, request.headers, request.raw)).status).toBe(200);
      clock = new Date(NOW.getTime() + 24 * 3_600_000 - 1);
      expect((await post(later.url, request.headers, request.raw)).status).toBe(400);
      clock = new Date(NOW.getTime() + 24 * 3_600_000);
      expect((await post(later.url, request.headers, request.raw)).body).toEqual({ status: 'ok' });
      // And the window starts again from that request.
      clock = new Date(NOW.getTime() + 25 * 3_600_000);
      expect((await post(later.url, request.headers, request.raw)).status).toBe(400);
      expect(calls).toHaveLength(2);
    } finally {
      await later.close();
    }
  });

  it('stores a hash of the body, not the body', async () => {
    const raw = JSON.stringify({ subscription_id: SUBSCRIPTION, coupon_code: 'STORED' });
    await restore(raw);
    const rows = await database.db.v1RestoreRequest.findMany({ where: { accountId } });
    expect(rows).toEqual([{ accountId, bodyHash: expect.any(Uint8Array), seenAt: NOW }]);
    expect(Buffer.from(rows[0]!.bodyHash).equals(createHash('sha256').update(raw).digest())).toBe(true);
  });
});

describe('operator: issue, rotate, revoke', () => {
  it('stores the secret sealed only; a rotation keeps the old one for its overlap, or ends it at once', async () => {
    const merchant = (await createAccount(database.db, 'rotating')).id;
    const first = await issueV1Secret(database.db, merchant, operatorSecretsKey());
    expect(first.rotated).toBe(false);
    const row = await database.db.account.findUniqueOrThrow({ where: { id: merchant } });
    expect(Buffer.from(row.v1SigningSecret!).toString('latin1')).not.toContain(first.secret);
    expect(openSecret(operatorSecretsKey(), V1_SECRET_PURPOSE, row.v1SigningSecret!)).toBe(first.secret);

    const now = new Date();
    const second = await issueV1Secret(database.db, merchant, operatorSecretsKey(), { now });
    expect(second.rotated).toBe(true);
    expect(second.secret).not.toBe(first.secret);
    expect(second.previous_valid_until).toBe(new Date(now.getTime() + 24 * 3_600_000).toISOString().replace('Z', '000Z'));
    let sent = 0;
    const restoreSignedWith = (key: string) => {
      // Different bytes each time, so none is refused as a replay.
      const body = { subscription_id: SUBSCRIPTION, coupon_code: `CODE${sent++}` };
      return restore(body, { merchant, signature: computeV1Signature(key, JSON.stringify(body)) });
    };
    // Both during the overlap.
    expect((await restoreSignedWith(first.secret)).status).toBe(200);
    expect((await restoreSignedWith(second.secret)).status).toBe(200);
    // Past it, only the new one.
    await database.db.account.update({ where: { id: merchant }, data: { v1PreviousSecretExpiresAt: new Date(Date.now() - 1_000) } });
    expect((await restoreSignedWith(first.secret)).status).toBe(401);
    expect((await restoreSignedWith(second.secret)).status).toBe(200);

    // No overlap: the replaced secret fails from the next request, and the one before it is gone too.
    const third = await issueV1Secret(database.db, merchant, operatorSecretsKey(), { overlapHours: 0 });
    expect(third.previous_valid_until).toBeUndefined();
    expect((await restoreSignedWith(second.secret)).status).toBe(401);
    expect((await restoreSignedWith(first.secret)).status).toBe(401);
    expect((await restoreSignedWith(third.secret)).status).toBe(200);
    await expect(issueV1Secret(database.db, merchant, operatorSecretsKey(), { overlapHours: -1 })).rejects.toThrow('0 to 720 hours');

    const fourth = await issueV1Secret(database.db, merchant, operatorSecretsKey());
    await revokeV1Secret(database.db, merchant);
    expect((await restoreSignedWith(fourth.secret)).status).toBe(403);
    expect((await restoreSignedWith(third.secret)).status).toBe(403);
  });

  it('refuses an unknown account', async () => {
    await expect(issueV1Secret(database.db, 'acct_01jz0000000000000000000000', operatorSecretsKey())).rejects.toThrow('does not exist');
    await expect(revokeV1Secret(database.db, 'acct_01jz0000000000000000000000')).rejects.toThrow('does not exist');
  });

  it('reads the key npm start keeps in DATA_DIR when SECRETS_KEY is unset, and never makes one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'v1-operator-'));
    expect(() => operatorSecretsKey({ DATA_DIR: dir })).toThrow('does not exist');
    const key = randomBytes(32);
    writeFileSync(join(dir, 'secrets.key'), `${key.toString('hex')}\n`);
    expect(operatorSecretsKey({ DATA_DIR: dir }).equals(key)).toBe(true);
    expect(operatorSecretsKey({ SECRETS_KEY: key.toString('base64'), DATA_DIR: '/nonexistent' }).equals(key)).toBe(true);
  });
});
