import { ApiError } from '../../domain/errors';
import { openSecret, sealSecret } from '../../domain/secret-box';
import { secretsKey } from '../secrets/secrets-key';
import { Prisma } from '../../generated/prisma/client';
import { envelopeOf } from '../errors/envelope';
import type { AuthorizedContext, Transaction } from '../trpc';
import { requestHash } from './request-hash';

/** Keys are kept at least this long (issue: "keys live at least 24 hours"). */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

type Work<T> = (ctx: AuthorizedContext) => Promise<T>;

/**
 * Operations whose response shows a secret once. Their stored response is sealed with
 * SECRETS_KEY, so the record kept for replays is no plaintext copy of the secret.
 */
const SECRET_REVEALING_OPERATIONS: ReadonlySet<string> = new Set(['api-keys/create', 'api-keys/rotate', 'webhooks/create', 'webhooks/rotate-key']);

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

function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002';
}

/**
 * Runs a mutating operation at most once per `Idempotency-Key` and API key.
 *
 * The response is stored inside the operation's own transaction (`ctx.transaction`), so the
 * change and the record that it happened commit together: a crash leaves either both or
 * neither. A concurrent duplicate blocks on the primary key until the first commits, then
 * fails with a unique violation, rolls its own change back and replays the winner's response.
 * Business refusals (422) are stored too, so a retry sees the same answer.
 */
export async function withIdempotency<T>(ctx: AuthorizedContext, operation: string, input: unknown, work: Work<T>): Promise<T> {
  const key = ctx.idempotencyKey;
  if (key === undefined) return work(ctx);
  if (!IDEMPOTENCY_KEY.test(key)) {
    throw ApiError.validation({
      'Idempotency-Key': { type: 'FORMAT', message: 'Use 1 to 255 printable ASCII characters, for example a UUID.' },
    });
  }
  const apiKeyId = ctx.principal.apiKeyId;
  const hash = requestHash(operation, input);

  const replayed = await replay(ctx, apiKeyId, key, operation, hash);
  if (replayed.found) return replayed.body as T;

  const record = (responseStatus: number, responseBody: unknown) => {
    const now = ctx.now();
    return {
      apiKeyId,
      key,
      operation,
      requestHash: hash,
      responseStatus,
      responseBody: responseBody as Prisma.InputJsonValue,
      createdAt: now,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS),
    };
  };

  let stored = false;
  const scoped: AuthorizedContext = {
    ...ctx,
    transaction: (run) =>
      ctx.db.$transaction(async (tx: Transaction) => {
        const result = await run(tx);
        await tx.idempotencyRecord.create({ data: record(200, storedResponse(operation, result)) });
        stored = true;
        return result;
      }),
  };

  try {
    const result = await work(scoped);
    if (!stored) await ctx.db.idempotencyRecord.createMany({ data: [record(200, storedResponse(operation, result))], skipDuplicates: true });
    return result;
  } catch (error) {
    if (isUniqueViolation(error)) {
      const winner = await replay(ctx, apiKeyId, key, operation, hash);
      if (winner.found) return winner.body as T;
    }
    if (error instanceof ApiError && envelopeOf(error).status === 422) {
      const { status, body } = envelopeOf(error);
      await ctx.db.idempotencyRecord.createMany({ data: [record(status, body)], skipDuplicates: true });
    }
    throw error;
  }
}

async function replay(
  ctx: AuthorizedContext,
  apiKeyId: string,
  key: string,
  operation: string,
  hash: string,
): Promise<{ found: false } | { found: true; body: unknown }> {
  const existing = await ctx.db.idempotencyRecord.findUnique({ where: { apiKeyId_key: { apiKeyId, key } } });
  if (!existing) return { found: false };
  if (existing.expiresAt <= ctx.now()) {
    await ctx.db.idempotencyRecord.deleteMany({ where: { apiKeyId, key, expiresAt: { lte: ctx.now() } } });
    return { found: false };
  }
  if (existing.operation !== operation || existing.requestHash !== hash) {
    throw new ApiError(
      'IDEMPOTENCY_KEY_REUSED',
      'This Idempotency-Key was already used with a different operation or request body.',
      { idempotency_key: key, original_operation: existing.operation },
    );
  }
  ctx.responseHeaders['idempotent-replayed'] = 'true';
  if (existing.responseStatus !== 200) {
    const body = existing.responseBody as { code: string; message: string; context?: Record<string, unknown> };
    throw new ApiError(body.code, body.message, body.context);
  }
  return { found: true, body: replayedResponse(operation, existing.responseBody) };
}
