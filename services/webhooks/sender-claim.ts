import { poolOf, type Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';

export interface ClaimLimits {
  /** The instant the claim is made, on the sender's clock: rows due by then are taken. */
  now: Date;
  /** The lease each claimed row gets; also the token its result is recorded against. */
  leaseUntil: Date;
  /** In flight at once per endpoint, across every sender of the database. */
  endpointCap: number;
  /** The same for an endpoint whose last attempts failed (`failing_since` set). */
  failingEndpointCap: number;
  /** Rows to take at most (the claiming process's free slots). */
  limit: number;
  /** Rows this process still holds (posting or awaiting their record), whatever their lease says: never claimed again. */
  held: string[];
  /** Rows of `held` whose request has ended: their lease stays until their result is recorded, but they hold no connection. */
  answered: string[];
}

export interface ClaimedDelivery {
  id: string;
  endpointId: string;
  eventId: string;
  attempt: number;
  url: string;
  eventType: string;
  occurredAt: Date;
  data: unknown;
  leaseUntil: Date;
}

/**
 * Whether the sender has any row at all (one probe of the status-handler index), asked before the
 * claim's transaction and its lock: an idle sender polls ten times a second, and every claim
 * starts from the PENDING SENDER rows, so without one there is nothing to claim.
 */
const senderRowQueued = sqlStatement(
  'webhook_deliveries.sender_row_queued',
  `SELECT EXISTS (SELECT 1 FROM webhook_deliveries WHERE status = 'PENDING' AND handler = 'SENDER') AS "queued"`,
);

/** Every claim of every process takes this transaction-scoped lock first (see below). */
const CLAIM_LOCK = 'webhook_deliveries.sender_claim';

/**
 * Leases the first attempts that are due (docs/webhooks.md, "Delivery"), fairly: per endpoint,
 * at most its cap minus what it already has in flight, the oldest first; then round-robin across
 * endpoints (every endpoint's first row, then every second row, …) up to `limit`. So an endpoint
 * with 10,000 rows due takes no more turns than one with a single row, and a slow one holds only
 * its own cap. Claims are serialised by an advisory lock, which makes the in-flight counts true
 * across processes and the per-endpoint cap exact: a leased row counts as in flight, except this
 * process's own rows whose request has ended (their results wait for the next record batch), so
 * the batch's commit is not part of every request's cycle. The endpoints with queued rows are found by a
 * loose index scan (one index probe per endpoint), not by reading every queued row. The leased rows
 * and their events are fetched by key (`= ANY(ARRAY(…))`, a LATERAL … LIMIT 1): joined to the
 * claim's estimate of `limit` rows, the planner chose hash joins that read every delivery and every
 * outbox event there has ever been, on every claim.
 */
export async function claimDueDeliveries(db: Database, limits: ClaimLimits): Promise<ClaimedDelivery[]> {
  const { now, leaseUntil, endpointCap, failingEndpointCap, limit, held, answered } = limits;
  if (limit <= 0) return [];
  const [probe] = await readRows<{ queued: boolean }>(db, senderRowQueued, []);
  if (!probe?.queued) return [];
  // On a pg connection of Prisma's own pool: three round trips (BEGIN with the lock, the claim,
  // COMMIT) where an interactive Prisma transaction costs about ten milliseconds more per claim,
  // and the claim is the sender's serial step.
  const client = await poolOf(db).connect();
  let rows: ClaimedRow[];
  let broken: Error | undefined;
  try {
    await client.query(`BEGIN; SELECT pg_advisory_xact_lock(hashtext('${CLAIM_LOCK}'))`);
    rows = (await client.query<ClaimedRow>(CLAIM_SQL, [now, leaseUntil, endpointCap, failingEndpointCap, limit, held, answered])).rows;
    await client.query('COMMIT');
  } catch (error) {
    // A connection whose transaction could not be rolled back is not given back to the pool.
    await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
  return rows.map((r) => ({
    id: r.id,
    endpointId: r.endpoint_id,
    eventId: r.event_id,
    attempt: r.attempt,
    url: r.url,
    eventType: r.event_type,
    occurredAt: r.occurred_at,
    data: r.data,
    leaseUntil,
  }));
}

interface ClaimedRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  attempt: number;
  url: string;
  event_type: string;
  occurred_at: Date;
  data: unknown;
}

/** $1 now, $2 lease until, $3 endpoint cap, $4 failing endpoint cap, $5 limit, $6 held ids, $7 answered ids. */
export const CLAIM_SQL = `
      WITH RECURSIVE queued(endpoint_id) AS (
        (SELECT endpoint_id FROM webhook_deliveries WHERE status = 'PENDING' AND handler = 'SENDER' ORDER BY endpoint_id LIMIT 1)
        UNION ALL
        SELECT (SELECT d.endpoint_id FROM webhook_deliveries d
                WHERE d.status = 'PENDING' AND d.handler = 'SENDER' AND d.endpoint_id > q.endpoint_id
                ORDER BY d.endpoint_id LIMIT 1)
        FROM queued q WHERE q.endpoint_id IS NOT NULL
      ),
      candidates AS (
        SELECT due.id, due.endpoint_id, due.next_attempt_at
        FROM queued q
        JOIN webhook_endpoints e ON e.id = q.endpoint_id AND e.status = 'ACTIVE' AND e.deleted_at IS NULL
        CROSS JOIN LATERAL (
          SELECT count(*)::int AS n FROM webhook_deliveries l
          WHERE l.endpoint_id = q.endpoint_id AND l.lease_until > $1 AND l.status = 'PENDING' AND l.handler = 'SENDER'
            AND l.id <> ALL($7::text[])
        ) busy
        CROSS JOIN LATERAL (
          SELECT d.id, d.endpoint_id, d.next_attempt_at FROM webhook_deliveries d
          WHERE d.status = 'PENDING' AND d.handler = 'SENDER' AND d.endpoint_id = q.endpoint_id
            AND d.next_attempt_at <= $1 AND (d.lease_until IS NULL OR d.lease_until <= $1)
            AND d.id <> ALL($6::text[])
          ORDER BY d.next_attempt_at, d.id
          LIMIT greatest((CASE WHEN e.failing_since IS NULL THEN $3::int ELSE $4::int END) - busy.n, 0)
          FOR UPDATE OF d SKIP LOCKED
        ) due
      ),
      chosen AS (
        SELECT id FROM (
          SELECT id, row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS turn FROM candidates
        ) ranked
        ORDER BY turn, random()
        LIMIT $5
      ),
      leased AS (
        UPDATE webhook_deliveries d SET lease_until = $2 WHERE d.id = ANY(ARRAY(SELECT id FROM chosen))
        RETURNING d.id, d.endpoint_id, d.event_id, d.attempt_count
      )
      SELECT l.id, l.endpoint_id, l.event_id, l.attempt_count + 1 AS attempt, e.url, o.event_type, o.occurred_at, o.data
      FROM leased l
      JOIN webhook_endpoints e ON e.id = l.endpoint_id
      CROSS JOIN LATERAL (SELECT o.event_type, o.occurred_at, o.data FROM outbox_events o WHERE o.id = l.event_id LIMIT 1) o`;
