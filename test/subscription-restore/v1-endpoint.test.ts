import { mkdtempSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client as TemporalClient } from '@temporalio/client';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { RateLimiter } from '../../api/rate-limit/token-bucket';
import { registerV1Routes, type RestoreSubscription } from '../../api/v1/routes';
import { PreviousRunStillClosing } from '../../services/subscriptions/workflow-client';
import { purgeV1AnswersOfRotatedOutSecrets } from '../../services/v1/purge-recorded-answers';
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

type RestoreInput = Parameters<RestoreSubscription>[2];
type Tx = Parameters<RestoreSubscription>[1];

let database: TestDatabase;
let app: FastifyInstance;
let baseUrl: string;
let accountId: string;
let secret: string;
let calls: RestoreInput[];
/** What the stand-in restore does after recording its call, in the transaction its answer is recorded in. */
let outcome: (tx: Tx) => Promise<void>;

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
    restore: async (_deps, tx, input) => {
      calls.push(input);
      await outcome(tx);
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

describe('replays: the same bytes from the same merchant get the first answer, and act once', () => {
  /** Another process on the same database, with its own clock and quota. */
  async function secondProcess(options: { now: () => Date; quota?: { ratePerSecond: number; burst: number } }) {
    const other = Fastify();
    registerV1Routes(other, {
      db: database.db,
      temporal: {} as TemporalClient,
      rateLimiter: new RateLimiter(() => options.quota ?? { ratePerSecond: 1000, burst: 1000 }),
      now: options.now,
      restore: async (_deps, tx, input) => {
        calls.push(input);
        await outcome(tx);
      },
    });
    return { url: await listen(other), close: () => other.close() };
  }

  function signed(raw: string, key = secret, merchant = accountId) {
    return { headers: { merchant, signature: computeV1Signature(key, raw) }, raw };
  }

  it('answers a byte-identical retry with the first answer without restoring again; other bytes of the same JSON restore again', async () => {
    const first = await restore({ subscription_id: SUBSCRIPTION, coupon_code: 'WELCOME' });
    expect(first).toMatchObject({ status: 200, body: { status: 'ok' } });
    const retried = await restore({ subscription_id: SUBSCRIPTION, coupon_code: 'WELCOME' });
    expect(retried).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(calls).toHaveLength(1);

    // A deliberate second restore: other bytes, signed with the secret.
    const reordered = await restore('{"coupon_code":"WELCOME","subscription_id":"subs_01jz0000000000000000000000"}');
    expect(reordered.body).toEqual({ status: 'ok' });
    expect(calls).toHaveLength(2);
  });

  it('is remembered in PostgreSQL: another process answers the retry, another merchant’s same bytes are its own request', async () => {
    const raw = JSON.stringify({ subscription_id: SUBSCRIPTION, expired_at: '2027-05-01 00:00:00' });
    const other = await secondProcess({ now: () => NOW });
    try {
      expect((await restore(raw)).body).toEqual({ status: 'ok' });
      const elsewhere = signed(raw);
      expect(await post(other.url, elsewhere.headers, elsewhere.raw)).toMatchObject({ status: 200, body: { status: 'ok' } });

      const merchant = (await createAccount(database.db, 'same bytes')).id;
      const merchantSecret = (await issueV1Secret(database.db, merchant, operatorSecretsKey())).secret;
      const theirs = signed(raw, merchantSecret, merchant);
      expect((await post(other.url, theirs.headers, theirs.raw)).body).toEqual({ status: 'ok' });
      expect(calls.map((c) => c.accountId)).toEqual([accountId, merchant]);
    } finally {
      await other.close();
    }
  });

  it('runs concurrent identical requests once: the others wait for its answer and give it', async () => {
    const raw = JSON.stringify({ subscription_id: SUBSCRIPTION, coupon_code: 'RACE' });
    const other = await secondProcess({ now: () => NOW });
    outcome = () => new Promise((resolve) => setTimeout(resolve, 300));
    try {
      const request = signed(raw);
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) => post(i % 2 === 0 ? baseUrl : other.url, request.headers, request.raw)),
      );
      expect(answers.map((a) => [a.status, a.body])).toEqual(Array.from({ length: 8 }, () => [200, { status: 'ok' }]));
      expect(calls).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it.each([
    [
      'refused by the rules (200 status error)',
      async () => Promise.reject(new ApiError('INCOMPATIBLE_STATUS', 'Not CANCELLED.')),
      200,
      { status: 'error', error: { code: '2.01', message: 'Not CANCELLED.', reason: 'INCOMPATIBLE_STATUS' } },
    ],
    [
      'naming an unknown subscription (404)',
      async () => Promise.reject(ApiError.notFound('Subscription', SUBSCRIPTION)),
      404,
      { error: { code: '2.01', message: `Subscription ${SUBSCRIPTION} does not exist.` } },
    ],
  ])('answers the retry of a request %s with the same answer, even once the state changed', async (_name, failure, status, body) => {
    outcome = failure;
    const request = { subscription_id: SUBSCRIPTION, coupon_code: `FAILED${status}` };
    expect(await restore(request)).toMatchObject({ status, body });
    // The subscription was cancelled again since: the copy must still not restore it.
    outcome = async () => undefined;
    expect(await restore(request)).toMatchObject({ status, body });
    expect(calls).toHaveLength(1);
  });

  it('records nothing for a 500: its transaction rolled back with whatever it changed, so the retry runs', async () => {
    const request = { subscription_id: SUBSCRIPTION, coupon_code: 'CRASHED' };
    outcome = async (tx) => {
      await tx.account.update({ where: { id: accountId }, data: { name: 'changed by the restore' } });
      throw new Error('the process died here');
    };
    expect((await restore(request)).status).toBe(500);
    expect((await database.db.account.findUniqueOrThrow({ where: { id: accountId } })).name).toBe('v1 merchant');

    outcome = async (tx) => {
      await tx.account.update({ where: { id: accountId }, data: { name: 'changed by the restore' } });
    };
    expect((await restore(request)).body).toEqual({ status: 'ok' });
    expect(calls).toHaveLength(2);
    // The change and the answer committed together.
    expect((await database.db.account.findUniqueOrThrow({ where: { id: accountId } })).name).toBe('changed by the restore');
    expect(await database.db.v1RestoreRequest.count({ where: { accountId } })).toBe(1);
    await database.db.account.update({ where: { id: accountId }, data: { name: 'v1 merchant' } });
  });

  it('does not record a refusal that asks to retry in a few seconds', async () => {
    const request = { subscription_id: SUBSCRIPTION, coupon_code: 'CLOSING' };
    outcome = async () => Promise.reject(new PreviousRunStillClosing('INCOMPATIBLE_STATUS', 'Still closing; retry in a few seconds.'));
    expect((await restore(request)).body).toMatchObject({ status: 'error', error: { reason: 'INCOMPATIBLE_STATUS' } });
    outcome = async () => undefined;
    expect((await restore(request)).body).toEqual({ status: 'ok' });
    expect(calls).toHaveLength(2);
  });

  it('answers an invalid body the same again, but records nothing for a request that failed authentication', async () => {
    const invalid = await restore({ subscription_id: 'nope' });
    expect(invalid.status).toBe(400);
    expect(await restore({ subscription_id: 'nope' })).toMatchObject({ status: 400, body: invalid.body });

    const body = { subscription_id: SUBSCRIPTION, coupon_code: 'FORGED' };
    // A forger sending the bytes first must not block the merchant's own request.
    expect((await restore(body, { signature: computeV1Signature(`${secret}x`, JSON.stringify(body)) })).status).toBe(401);
    expect((await restore(body)).body).toEqual({ status: 'ok' });
  });

  it('does not record a request refused by the rate limit: its retry goes through, and answered retries take no quota', async () => {
    let clock = NOW;
    const limited = await secondProcess({ now: () => clock, quota: { ratePerSecond: 1, burst: 1 } });
    try {
      const first = signed(JSON.stringify({ subscription_id: SUBSCRIPTION, coupon_code: 'FIRST' }));
      const second = signed(JSON.stringify({ subscription_id: SUBSCRIPTION, coupon_code: 'SECOND' }));
      expect((await post(limited.url, first.headers, first.raw)).status).toBe(200);
      expect((await post(limited.url, second.headers, second.raw)).status).toBe(429);
      clock = new Date(NOW.getTime() + 1_000);
      // The retry of the first is answered before the bucket, which stays full for the second.
      expect((await post(limited.url, first.headers, first.raw)).body).toEqual({ status: 'ok' });
      expect((await post(limited.url, second.headers, second.raw)).body).toEqual({ status: 'ok' });
      expect(calls.map((c) => c.coupon)).toEqual([{ code: 'FIRST' }, { code: 'SECOND' }]);
    } finally {
      await limited.close();
    }
  });

  it('answers the same bytes a month later without acting: the record lives as long as the secret', async () => {
    let clock = NOW;
    const later = await secondProcess({ now: () => clock });
    try {
      const request = signed(JSON.stringify({ subscription_id: SUBSCRIPTION, coupon_code: 'NEXT_MONTH' }));
      expect((await post(later.url, request.headers, request.raw)).body).toEqual({ status: 'ok' });
      clock = new Date(NOW.getTime() + 24 * 3_600_000);
      expect((await post(later.url, request.headers, request.raw)).body).toEqual({ status: 'ok' });
      clock = new Date(NOW.getTime() + 31 * 24 * 3_600_000);
      expect((await post(later.url, request.headers, request.raw)).body).toEqual({ status: 'ok' });
      expect(calls).toHaveLength(1);
    } finally {
      await later.close();
    }
  });

  it('stores a hash of the body and the answer, not the body', async () => {
    const raw = JSON.stringify({ subscription_id: SUBSCRIPTION, coupon_code: 'STORED' });
    await restore(raw);
    const rows = await database.db.v1RestoreRequest.findMany({ where: { accountId } });
    const { v1SecretGeneration } = await database.db.account.findUniqueOrThrow({ where: { id: accountId } });
    expect(rows).toEqual([
      { accountId, bodyHash: expect.any(Uint8Array), secretGeneration: v1SecretGeneration, responseStatus: 200, responseBody: { status: 'ok' }, seenAt: NOW },
    ]);
    expect(Buffer.from(rows[0]!.bodyHash).equals(createHash('sha256').update(raw).digest())).toBe(true);
  });
});

describe('replays across a rotation: records die with the secret that signed them', () => {
  it('keeps answering through the overlap, also a copy signed with the new secret, and forgets when the secret is rotated out', async () => {
    const merchant = (await createAccount(database.db, 'rotating answers')).id;
    const old = (await issueV1Secret(database.db, merchant, operatorSecretsKey())).secret;
    const raw = JSON.stringify({ subscription_id: SUBSCRIPTION, coupon_code: 'ROTATE' });
    const send = (key: string) => post(baseUrl, { merchant, signature: computeV1Signature(key, raw) }, raw);

    expect((await send(old)).body).toEqual({ status: 'ok' });
    const next = (await issueV1Secret(database.db, merchant, operatorSecretsKey(), { now: NOW })).secret;
    // During the overlap both copies are the same request: answered, not run.
    expect((await send(old)).body).toEqual({ status: 'ok' });
    expect((await send(next)).body).toEqual({ status: 'ok' });
    expect(calls).toHaveLength(1);

    // The overlap ends: the old copy is refused as unsigned; the new-secret copy is still answered
    // (its record moved to the new secret when it came), so replaying it restores nothing.
    await database.db.account.update({ where: { id: merchant }, data: { v1PreviousSecretExpiresAt: new Date(Date.now() - 1_000) } });
    await purgeV1AnswersOfRotatedOutSecrets({ db: database.db, now: () => new Date() }, () => undefined);
    expect(await database.db.v1RestoreRequest.count({ where: { accountId: merchant } })).toBe(1);
    expect((await send(old)).status).toBe(401);
    expect((await send(next)).body).toEqual({ status: 'ok' });
    expect(calls).toHaveLength(1);

    // Rotated out at once: its records go in the rotation's transaction.
    const third = (await issueV1Secret(database.db, merchant, operatorSecretsKey(), { overlapHours: 0 })).secret;
    expect(await database.db.v1RestoreRequest.count({ where: { accountId: merchant } })).toBe(0);
    expect((await send(next)).status).toBe(401);
    // The bytes signed with the secret now issued are a new request.
    expect((await send(third)).body).toEqual({ status: 'ok' });
    expect(calls).toHaveLength(2);

    await revokeV1Secret(database.db, merchant);
    expect(await database.db.v1RestoreRequest.count({ where: { accountId: merchant } })).toBe(0);
  });

  it('the maintenance purge drops the records of an overlap that ended and keeps those of live secrets', async () => {
    const merchant = (await createAccount(database.db, 'overlap ends')).id;
    const old = (await issueV1Secret(database.db, merchant, operatorSecretsKey())).secret;
    const sendSigned = (key: string, code: string) => {
      const raw = JSON.stringify({ subscription_id: SUBSCRIPTION, coupon_code: code });
      return post(baseUrl, { merchant, signature: computeV1Signature(key, raw) }, raw);
    };
    await sendSigned(old, 'OLD');
    const next = (await issueV1Secret(database.db, merchant, operatorSecretsKey(), { now: NOW })).secret;
    await sendSigned(next, 'NEW');
    await purgeV1AnswersOfRotatedOutSecrets({ db: database.db, now: () => NOW }, () => undefined);
    expect(await database.db.v1RestoreRequest.count({ where: { accountId: merchant } })).toBe(2);
    // 24 hours later the overlap is over.
    await purgeV1AnswersOfRotatedOutSecrets({ db: database.db, now: () => new Date(NOW.getTime() + 24 * 3_600_000) }, () => undefined);
    const left = await database.db.v1RestoreRequest.findMany({ where: { accountId: merchant } });
    const { v1SecretGeneration } = await database.db.account.findUniqueOrThrow({ where: { id: merchant } });
    expect(left.map((r) => r.secretGeneration)).toEqual([v1SecretGeneration]);
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
