import { createHash } from 'node:crypto';
import { Prisma } from '../../generated/prisma/client';
import type { Database } from '../../prisma/client';

/**
 * The answers of v1 restore requests (docs/subscription-restore.md, "Replays"). The v1 wire
 * format has no timestamp, nonce or idempotency key, so the bytes themselves name a request: the
 * same bytes from the same merchant get the first answer again and never act twice, for as long
 * as the secret that signed them is valid. A retry after a lost answer learns what happened; a
 * copy replayed later restores nothing, and dies with the secret.
 */

export interface V1Answer {
  status: number;
  body: unknown;
}

export interface V1RequestKey {
  accountId: string;
  /** The raw body, exactly as signed. Only its SHA-256 is stored. */
  body: Buffer;
  /** accounts.v1_secret_generation of the secret that verified this request. */
  secretGeneration: number;
}

type Tx = Prisma.TransactionClient;

function bodyHash(body: Buffer): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(body).digest());
}

/** The record `r`'s secret, on account `a`, still verifies requests at `now`. */
function signedByLiveSecret(now: Date): Prisma.Sql {
  return Prisma.sql`a.v1_signing_secret IS NOT NULL AND (
    r.secret_generation = a.v1_secret_generation
    OR (r.secret_generation = a.v1_secret_generation - 1 AND a.v1_previous_signing_secret IS NOT NULL AND a.v1_previous_secret_expires_at > ${now}))`;
}

/**
 * The answer recorded for these bytes, if their secret lives. A copy signed by a newer secret
 * (the merchant switched during a rotation's overlap) moves the record to that secret, so it
 * lives as long as any copy that can still be sent.
 */
async function findAnswer(db: Database | Tx, key: V1RequestKey, now: Date): Promise<V1Answer | null> {
  const hash = bodyHash(key.body);
  const [found] = await db.$queryRaw<{ status: number; body: unknown; secret_generation: number }[]>`
    SELECT r.response_status AS status, r.response_body AS body, r.secret_generation
    FROM v1_restore_requests r JOIN accounts a ON a.id = r.account_id
    WHERE r.account_id = ${key.accountId} AND r.body_hash = ${hash} AND ${signedByLiveSecret(now)}`;
  if (!found) return null;
  if (found.secret_generation < key.secretGeneration) {
    await db.$executeRaw`
      UPDATE v1_restore_requests SET secret_generation = ${key.secretGeneration}
      WHERE account_id = ${key.accountId} AND body_hash = ${hash} AND secret_generation < ${key.secretGeneration}`;
  }
  return { status: found.status, body: found.body };
}

/** Serializes the transactions answering one merchant's bytes until the holder commits. */
async function lockAndFind(tx: Tx, key: V1RequestKey, now: Date): Promise<V1Answer | null> {
  await tx.$queryRaw`SELECT true AS locked FROM pg_advisory_xact_lock(hashtextextended(${`v1-restore:${key.accountId}:`} || encode(${bodyHash(key.body)}, 'hex'), 0))`;
  return findAnswer(tx, key, now);
}

/** A record of a rotated-out secret that was not purged yet is taken over. */
async function record(tx: Tx, key: V1RequestKey, answer: V1Answer, now: Date): Promise<void> {
  const body = JSON.stringify(answer.body);
  await tx.$executeRaw`
    INSERT INTO v1_restore_requests (account_id, body_hash, secret_generation, response_status, response_body, seen_at)
    VALUES (${key.accountId}, ${bodyHash(key.body)}, ${key.secretGeneration}, ${answer.status}, ${body}::jsonb, ${now})
    ON CONFLICT (account_id, body_hash) DO UPDATE SET secret_generation = EXCLUDED.secret_generation,
      response_status = EXCLUDED.response_status, response_body = EXCLUDED.response_body, seen_at = EXCLUDED.seen_at`;
}

/** The recorded answer of these bytes, read before anything else is spent on them (the rate limit). */
export function recordedV1Answer(db: Database, key: V1RequestKey, now: Date): Promise<V1Answer | null> {
  return findAnswer(db, key, now);
}

/**
 * Answers the request once: `work` runs in a transaction that first takes the lock of these
 * bytes, and its answer is recorded in that same transaction, so the restore and the record that
 * it happened commit together or not at all. A concurrent identical request waits on the lock,
 * then finds the answer. When `work` throws, its transaction (and any change it made) rolls
 * back; `refusal` says which errors are final answers to record (under the lock again, unless a
 * duplicate answered meanwhile); any other error is rethrown and nothing is recorded, so a retry
 * runs again.
 */
export async function answerV1RequestOnce(
  db: Database,
  key: V1RequestKey,
  now: Date,
  work: (tx: Tx) => Promise<V1Answer>,
  refusal: (error: unknown) => V1Answer | undefined,
): Promise<V1Answer> {
  try {
    return await db.$transaction(async (tx) => {
      const earlier = await lockAndFind(tx, key, now);
      if (earlier) return earlier;
      const answer = await work(tx);
      await record(tx, key, answer, now);
      return answer;
    });
  } catch (error) {
    const refused = refusal(error);
    if (!refused) throw error;
    return db.$transaction(async (tx) => {
      const earlier = await lockAndFind(tx, key, now);
      if (earlier) return earlier;
      await record(tx, key, refused, now);
      return refused;
    });
  }
}

/**
 * Deletes the records whose secret no longer verifies anything. A rotation or a revocation drops
 * its account's in its own transaction (`accountId`); the maintenance purge drops those of
 * overlaps that ended, on every account, `limit` at a time. Returns how many went.
 */
export function deleteAnswersOfRotatedOutSecrets(db: Database | Tx, now: Date, scope: { accountId?: string; limit?: number }): Promise<number> {
  return db.$executeRaw`
    DELETE FROM v1_restore_requests
    WHERE (account_id, body_hash) IN (
      SELECT r.account_id, r.body_hash FROM v1_restore_requests r JOIN accounts a ON a.id = r.account_id
      WHERE ${scope.accountId === undefined ? Prisma.sql`true` : Prisma.sql`r.account_id = ${scope.accountId}`}
        AND NOT (${signedByLiveSecret(now)})
      ${scope.limit === undefined ? Prisma.empty : Prisma.sql`LIMIT ${scope.limit}`})`;
}
