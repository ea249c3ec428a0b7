import { ApiError } from '../../domain/errors';
import { openSecret, sealSecret } from '../../domain/secret-box';
import { secretsKey } from '../../services/secrets/secrets-key';
import type { Prisma } from '../../generated/prisma/client';
import { envelopeOf } from '../errors/envelope';
import type { AuthorizedContext, Transaction } from '../trpc';
import { findIdempotencyRecord, insertIdempotencyRecord, lockIdempotencyKey, type IdempotencyRecordRow } from './records';
import { requestHash } from './request-hash';

/** Keys are kept at least this long (issue: "keys live at least 24 hours"). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** Printable ASCII without spaces, 1 to 255 characters; the OpenAPI document states it as the header's pattern. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

type Work<T> = (ctx: AuthorizedContext) => Promise<T>;

/**
 * Operations whose response shows a secret once. Their stored response is sealed with
 * SECRETS_KEY, so the record kept for replays is no plaintext copy of the secret.
 */
const SECRET_REVEALING_OPERATIONS: ReadonlySet<string> = new Set(['api-keys/create', 'api-keys/rotate', 'webhooks/create', 'webhooks/rotate-key', 'customer-portal-sessions/create']);

function sealingPurpose(operation: string): string {
  return `idempotency-response:${operation}`;
}

function storedResponse(operation: string, body: unknown): unknown {
  if (!SECRET_REVEALING_OPERATIONS.has(operation)) return body;
  return { sealed: sealSecret(secretsKey(), sealingPurpose(operation), JSON.stringify(body)).toString('base64') };
}

function replayedResponse(operation: string, stored: unknown): unknown {
  if (!SECRET_REVEALING_OPERATIONS.has(operation)) return stored;
  const { sealed } = stored as { sealed: string };
  return JSON.parse(openSecret(secretsKey(), sealingPurpose(operation), Buffer.from(sealed, 'base64')));
}

/**
 * A 422 whose refusal is itself recorded (InvoiceFinalizationFailed): `record` commits together
 * with the stored refusal, under the key's lock, so one refused request records it once however
 * it is retried or duplicated. Without an Idempotency-Key it commits on its own.
 */
export class RecordedRefusal extends Error {
  constructor(
    readonly error: ApiError,
    readonly record: (tx: Transaction) => Promise<void>,
  ) {
    super(error.message);
  }
}

interface KeyScope {
  apiKeyId: string;
  key: string;
  operation: string;
  hash: string;
}

type StoredRecord = IdempotencyRecordRow;

/** The key already has an answer: the work stops (its transaction rolls back) and that answer is given. */
class Answered extends Error {
  constructor(readonly record: StoredRecord) {
    super('The Idempotency-Key already has an answer.');
  }
}

type Refusal = { error: ApiError; record?: (tx: Transaction) => Promise<void> };

function refusalOf(error: unknown): Refusal | undefined {
  if (error instanceof RecordedRefusal) return { error: error.error, record: error.record };
  if (error instanceof ApiError && envelopeOf(error).status === 422) return { error };
  return undefined;
}

async function liveRecord(db: Transaction, ctx: AuthorizedContext, scope: KeyScope): Promise<StoredRecord | undefined> {
  const { apiKeyId, key } = scope;
  const existing = await findIdempotencyRecord(db, apiKeyId, key);
  if (!existing) return undefined;
  if (existing.expiresAt > ctx.now()) return existing;
  await db.idempotencyRecord.deleteMany({ where: { apiKeyId, key, expiresAt: { lte: ctx.now() } } });
  return undefined;
}

/**
 * Serializes every transaction run under one (API key, Idempotency-Key), then stops the work if
 * a duplicate has answered meanwhile. Taken before anything else in the transaction, before any
 * row lock, so a duplicate waits here rather than behind a business check's lock, and once the
 * winner commits it replays instead of refusing what the winner changed.
 */
async function claimKey(tx: Transaction, ctx: AuthorizedContext, scope: KeyScope): Promise<void> {
  await lockIdempotencyKey(tx, scope.apiKeyId, scope.key);
  const answered = await liveRecord(tx, ctx, scope);
  if (answered) throw new Answered(answered);
}

function recordOf(ctx: AuthorizedContext, scope: KeyScope, responseStatus: number, responseBody: unknown): IdempotencyRecordRow {
  const now = ctx.now();
  return {
    apiKeyId: scope.apiKeyId,
    key: scope.key,
    operation: scope.operation,
    requestHash: scope.hash,
    responseStatus,
    responseBody: responseBody as Prisma.JsonValue,
    createdAt: now,
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS),
  };
}

function successRecord(ctx: AuthorizedContext, scope: KeyScope, result: unknown) {
  return recordOf(ctx, scope, 200, storedResponse(scope.operation, result));
}

function refusalRecord(ctx: AuthorizedContext, scope: KeyScope, refusal: Refusal) {
  const { status, body } = envelopeOf(refusal.error);
  return recordOf(ctx, scope, status, body);
}

/** The stored answer: the body of a 200, or the stored refusal thrown again. */
function answer<T>(ctx: AuthorizedContext, scope: KeyScope, record: StoredRecord): T {
  if (record.operation !== scope.operation || record.requestHash !== scope.hash) {
    throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different operation or request body.', {
      idempotency_key: scope.key,
      original_operation: record.operation,
    });
  }
  ctx.responseHeaders['idempotent-replayed'] = 'true';
  if (record.responseStatus !== 200) {
    const body = record.responseBody as { code: string; message: string; context?: Record<string, unknown> };
    throw new ApiError(body.code, body.message, body.context);
  }
  return replayedResponse(scope.operation, record.responseBody) as T;
}

/** 400 VALIDATION on `Idempotency-Key` unless it is 1 to 255 printable ASCII characters. */
export function refuseMalformedIdempotencyKey(key: string): void {
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw ApiError.validation({
      'Idempotency-Key': { type: 'FORMAT', message: 'Use 1 to 255 printable ASCII characters, for example a UUID.' },
    });
  }
}

/**
 * Runs a mutating operation at most once per `Idempotency-Key` and API key (docs/idempotency.md).
 *
 * Every transaction the work opens through `ctx.transaction` first takes the key's advisory
 * lock and replays an answer found there; the first to commit stores its response in that same
 * transaction, so the change and the record that it happened commit together. A refusal (422)
 * is stored under the lock too, unless a duplicate answered first: then that answer is given,
 * so the replay wins over every business check, whichever the duplicate reached.
 *
 * `holdKey`: the work writes through no transaction of ours (a workflow Update does it), so the
 * lock is held on a transaction of its own for the whole work instead.
 */
export async function withIdempotency<T>(
  ctx: AuthorizedContext,
  operation: string,
  input: unknown,
  work: Work<T>,
  options: { holdKey?: boolean } = {},
): Promise<T> {
  const key = ctx.idempotencyKey;
  if (key === undefined) return withoutKey(ctx, work);
  refuseMalformedIdempotencyKey(key);
  const scope: KeyScope = { apiKeyId: ctx.principal.apiKeyId, key, operation, hash: requestHash(operation, input) };
  const earlier = await liveRecord(ctx.db, ctx, scope);
  if (earlier) return answer(ctx, scope, earlier);
  try {
    return options.holdKey ? await holdingKey(ctx, scope, work) : await lockingEachTransaction(ctx, scope, work);
  } catch (error) {
    if (error instanceof Answered) return answer(ctx, scope, error.record);
    throw error;
  }
}

async function withoutKey<T>(ctx: AuthorizedContext, work: Work<T>): Promise<T> {
  try {
    return await work(ctx);
  } catch (error) {
    if (!(error instanceof RecordedRefusal)) throw error;
    await ctx.db.$transaction(error.record);
    throw error.error;
  }
}

async function lockingEachTransaction<T>(ctx: AuthorizedContext, scope: KeyScope, work: Work<T>): Promise<T> {
  let stored = false;
  const scoped: AuthorizedContext = {
    ...ctx,
    transaction: (run) =>
      ctx.db.$transaction(async (tx: Transaction) => {
        await claimKey(tx, ctx, scope);
        const result = await run(tx);
        await insertIdempotencyRecord(tx, successRecord(ctx, scope, result));
        stored = true;
        return result;
      }),
  };
  let result: T;
  try {
    result = await work(scoped);
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    await ctx.db.$transaction(async (tx: Transaction) => {
      await claimKey(tx, ctx, scope);
      await refusal.record?.(tx);
      await insertIdempotencyRecord(tx, refusalRecord(ctx, scope, refusal));
    });
    throw refusal.error;
  }
  if (!stored) {
    await ctx.db.$transaction(async (tx: Transaction) => {
      await claimKey(tx, ctx, scope);
      await insertIdempotencyRecord(tx, successRecord(ctx, scope, result));
    });
  }
  return result;
}

/**
 * How long a held key's transaction may stay open: the work is a workflow Update, which waits for
 * the change ahead of it, at worst a renewal's charge whose worker died and which is retried after
 * its heartbeat timeout (domain/charge-heartbeats.ts). The default 30 s would close the
 * transaction under a change the workflow still makes, and answer 500.
 */
const HOLD_KEY_TIMEOUT_MS = 120_000;

async function holdingKey<T>(ctx: AuthorizedContext, scope: KeyScope, work: Work<T>): Promise<T> {
  const outcome = await ctx.db.$transaction(async (tx: Transaction): Promise<{ result: T } | { refused: ApiError }> => {
    await claimKey(tx, ctx, scope);
    try {
      const result = await work(ctx);
      await insertIdempotencyRecord(tx, successRecord(ctx, scope, result));
      return { result };
    } catch (error) {
      const refusal = refusalOf(error);
      if (!refusal) throw error;
      await refusal.record?.(tx);
      await insertIdempotencyRecord(tx, refusalRecord(ctx, scope, refusal));
      return { refused: refusal.error };
    }
  }, { timeout: HOLD_KEY_TIMEOUT_MS });
  if ('refused' in outcome) throw outcome.refused;
  return outcome.result;
}
