import { newId } from '../../domain/ids';
import { isSuccessStatus } from '../../domain/webhook-delivery-failure';
import { RETRY_DELAYS_MS } from '../../domain/webhook-retry-schedule';
import type { Database } from '../../prisma/client';
import { lockEndpointsToNote, noteAttemptOutcomes } from './endpoint-failures';
import type { Answer } from './post';

export interface SenderResult {
  deliveryId: string;
  endpointId: string;
  eventId: string;
  attempt: number;
  /** The lease the attempt was made under: its result is recorded only while the lease is still this one. */
  leaseUntil: Date;
  at: Date;
  answer: Answer;
}

/** A failed delivery handed to its retry workflow: start it once this batch has committed. */
export interface RetryToStart {
  /** The delivery's account: its retry workflow's AccountId (docs/operators.md). */
  accountId: string;
  eventId: string;
  endpointId: string;
  firstAttempt: number;
  claim: string;
}

/**
 * Records a batch of the sender's attempts in one transaction (docs/webhooks.md, "Delivery"):
 * every attempt; each delivery still leased under the lease its attempt was made with becomes
 * SUCCEEDED, or after a failure is handed to the retry workflow (handler RETRY, next attempt after
 * the first retry delay); the endpoints' failure records follow (services/webhooks/endpoint-failures.ts),
 * and a failure that disables its endpoint makes its delivery FAILED. A delivery whose lease was
 * lost (it expired and another sender took it) or that was cancelled while its request was out
 * keeps its state: the attempt is on record, the state is not ours. Returns the retry workflows to start.
 */
export async function recordSenderResults(db: Database, results: SenderResult[]): Promise<RetryToStart[]> {
  const succeeded = results.filter((r) => isSuccessStatus(r.answer.responseStatus));
  const failed = results.filter((r) => !isSuccessStatus(r.answer.responseStatus));
  return db.$transaction(async (tx) => {
    const failing = await lockEndpointsToNote(tx, results.map((r) => ({ endpointId: r.endpointId, at: r.at, succeeded: isSuccessStatus(r.answer.responseStatus) })));
    // One statement over arrays: Prisma's createMany spent ~0.17 ms of CPU per row building its
    // query (85 ms for a batch of 500, against 8 ms for this; docs/benchmarks.md, bench:webhooks).
    await tx.$executeRaw`
      INSERT INTO webhook_delivery_attempts (id, delivery_id, attempt, requested_at, response_status, error, duration_ms)
      SELECT * FROM unnest(${results.map((r) => newId('webhookDeliveryAttempt', r.at.getTime()))}::text[], ${results.map((r) => r.deliveryId)}::text[],
                           ${results.map((r) => r.attempt)}::int[], ${results.map((r) => r.at.toISOString())}::timestamptz[],
                           ${results.map((r) => r.answer.responseStatus)}::int[], ${results.map((r) => r.answer.error)}::text[],
                           ${results.map((r) => r.answer.durationMs)}::int[])
      ON CONFLICT DO NOTHING`;
    const delivered = new Set<string>();
    if (succeeded.length > 0) {
      const rows = await tx.$queryRaw<{ id: string }[]>`
        UPDATE webhook_deliveries d
        SET status = 'SUCCEEDED', attempt_count = v.attempt, delivered_at = v.at, next_attempt_at = NULL, lease_until = NULL, updated_at = v.at
        FROM unnest(${succeeded.map((r) => r.deliveryId)}::text[], ${succeeded.map((r) => r.leaseUntil.toISOString())}::timestamptz[],
                    ${succeeded.map((r) => r.attempt)}::int[], ${succeeded.map((r) => r.at.toISOString())}::timestamptz[]) AS v(id, lease, attempt, at)
        WHERE d.id = v.id AND d.status = 'PENDING' AND d.handler = 'SENDER' AND d.lease_until = v.lease
        RETURNING d.id`;
      for (const row of rows) delivered.add(row.id);
    }
    const retrying = new Map<string, Date>();
    const accounts = new Map<string, string>();
    if (failed.length > 0) {
      const rows = await tx.$queryRaw<{ id: string; next_attempt_at: Date; account_id: string }[]>`
        UPDATE webhook_deliveries d
        SET handler = 'RETRY', attempt_count = v.attempt, next_attempt_at = v.next, lease_until = NULL, updated_at = v.at
        FROM unnest(${failed.map((r) => r.deliveryId)}::text[], ${failed.map((r) => r.leaseUntil.toISOString())}::timestamptz[],
                    ${failed.map((r) => r.attempt)}::int[], ${failed.map((r) => r.at.toISOString())}::timestamptz[],
                    ${failed.map((r) => new Date(r.at.getTime() + RETRY_DELAYS_MS[r.attempt - 1]!).toISOString())}::timestamptz[]) AS v(id, lease, attempt, at, next)
        WHERE d.id = v.id AND d.status = 'PENDING' AND d.handler = 'SENDER' AND d.lease_until = v.lease
        RETURNING d.id, d.next_attempt_at, d.account_id`;
      for (const row of rows) {
        retrying.set(row.id, row.next_attempt_at);
        accounts.set(row.id, row.account_id);
      }
    }

    const ours = results.filter((r) => delivered.has(r.deliveryId) || retrying.has(r.deliveryId));
    const disabled = await noteAttemptOutcomes(
      tx,
      ours.map((r) => ({ endpointId: r.endpointId, at: r.at, succeeded: delivered.has(r.deliveryId) })),
      failing,
    );
    const failedFinally = failed.filter((r) => retrying.has(r.deliveryId) && disabled.has(r.endpointId));
    for (const r of failedFinally) {
      // Cancelled with the rest of its endpoint's deliveries a moment ago: the failure that disabled it ends it.
      await tx.webhookDelivery.update({ where: { id: r.deliveryId }, data: { status: 'FAILED', nextAttemptAt: null, updatedAt: r.at } });
      retrying.delete(r.deliveryId);
    }
    return failed
      .filter((r) => retrying.has(r.deliveryId))
      .map((r) => ({ accountId: accounts.get(r.deliveryId)!, eventId: r.eventId, endpointId: r.endpointId, firstAttempt: r.attempt + 1, claim: retrying.get(r.deliveryId)!.toISOString() }));
  });
}
