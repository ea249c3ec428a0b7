import type { Database, Prisma } from '../../prisma/client';
import { readRows, sqlStatement, writeRows } from '../../prisma/statements';

type Db = Database | Prisma.TransactionClient;

/** An Idempotency-Key's stored answer, as Prisma names its columns. */
export type IdempotencyRecordRow = Prisma.IdempotencyRecordGetPayload<object>;

/**
 * Every keyed mutation reads its key before the work, takes the key's lock and reads it again in
 * its transaction, and stores its answer there: declared statements, because through Prisma's
 * client those four cost more CPU than the statements themselves (issue 13).
 * test/api/idempotency-records.test.ts holds the row read equal to Prisma's.
 */
const findSql = sqlStatement(
  'idempotency.find',
  `SELECT api_key_id AS "apiKeyId", key, operation, request_hash AS "requestHash", response_status AS "responseStatus",
          response_body AS "responseBody", created_at AS "createdAt", expires_at AS "expiresAt"
   FROM idempotency_records WHERE api_key_id = $1 AND key = $2`,
);

export async function findIdempotencyRecord(db: Db, apiKeyId: string, key: string): Promise<IdempotencyRecordRow | null> {
  const [record] = await readRows<IdempotencyRecordRow>(db, findSql, [apiKeyId, key]);
  return record ?? null;
}

const lockSql = sqlStatement('idempotency.lock', 'SELECT true AS locked FROM pg_advisory_xact_lock(hashtextextended($1, 0))');

/** Serializes the transactions of one (API key, Idempotency-Key) until the holder's commit. */
export async function lockIdempotencyKey(tx: Prisma.TransactionClient, apiKeyId: string, key: string): Promise<void> {
  await readRows(tx, lockSql, [`idempotency:${apiKeyId}:${key}`]);
}

const insertSql = sqlStatement(
  'idempotency.insert',
  `INSERT INTO idempotency_records (api_key_id, key, operation, request_hash, response_status, response_body, created_at, expires_at)
   VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)`,
);

/** Stores an answer in the caller's transaction: it commits with the change it answers for. */
export async function insertIdempotencyRecord(tx: Prisma.TransactionClient, record: IdempotencyRecordRow): Promise<void> {
  await writeRows(tx, insertSql, [
    record.apiKeyId,
    record.key,
    record.operation,
    record.requestHash,
    record.responseStatus,
    JSON.stringify(record.responseBody),
    record.createdAt,
    record.expiresAt,
  ]);
}
