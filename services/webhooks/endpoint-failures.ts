import { formatDateTime } from '../../domain/datetime';
import { ENDPOINT_DISABLE_AFTER_MS } from '../../domain/webhook-retry-schedule';
import type { Prisma } from '../../prisma/client';
import { cancelPendingDeliveries } from './endpoints';

type Db = Prisma.TransactionClient;

export interface AttemptOutcome {
  endpointId: string;
  /** When the attempt was made, on the clock of whoever made it. */
  at: Date;
  succeeded: boolean;
}

/**
 * Takes, in id order, the row locks noteAttemptOutcomes will need for these outcomes: the
 * endpoints of failures, and those already failing (a success clears them). Called before the
 * caller locks any delivery: webhooks/patch and delete lock an endpoint and then its deliveries,
 * so a recorder taking a delivery first and its endpoint second deadlocks with them
 * (docs/webhooks.md, "Lock order"). An endpoint that starts failing between this and the note is
 * locked there, after the deliveries; that window is one statement wide.
 */
export async function lockEndpointsToNote(tx: Db, outcomes: AttemptOutcome[]): Promise<void> {
  if (outcomes.length === 0) return;
  const all = [...new Set(outcomes.map((o) => o.endpointId))];
  const failed = [...new Set(outcomes.filter((o) => !o.succeeded).map((o) => o.endpointId))];
  await tx.$queryRaw`
    SELECT id FROM webhook_endpoints
    WHERE id = ANY(${all}::text[]) AND (id = ANY(${failed}::text[]) OR failing_since IS NOT NULL)
    ORDER BY id FOR UPDATE`;
}

/**
 * Notes attempts' outcomes on their endpoints (docs/webhooks.md, "Endpoints that keep failing"),
 * for the sender's batches and the retry workflows' single attempts alike: a success clears the
 * endpoint's `failing_since`, the first failure after it sets it; once an endpoint has failed for
 * ENDPOINT_DISABLE_AFTER_MS with no success in between, it is DISABLED and everything still
 * pending for it is cancelled. Returns the endpoints this call disabled.
 */
export async function noteAttemptOutcomes(tx: Db, outcomes: AttemptOutcome[]): Promise<Set<string>> {
  const recovered: string[] = [];
  const failing: { id: string; firstFailure: string; reset: boolean; lastFailure: string }[] = [];
  for (const endpointId of [...new Set(outcomes.map((o) => o.endpointId))].sort()) {
    const own = outcomes.filter((o) => o.endpointId === endpointId).sort((a, b) => a.at.getTime() - b.at.getTime());
    const lastSuccess = [...own].reverse().find((o) => o.succeeded);
    const failuresAfter = own.filter((o) => !o.succeeded && (!lastSuccess || o.at > lastSuccess.at));
    if (failuresAfter.length === 0) recovered.push(endpointId);
    else {
      failing.push({
        id: endpointId,
        firstFailure: failuresAfter[0]!.at.toISOString(),
        // A success in the batch ends the run of failures: the run restarts at the first failure after it.
        reset: lastSuccess !== undefined,
        lastFailure: failuresAfter[failuresAfter.length - 1]!.at.toISOString(),
      });
    }
  }
  if (recovered.length > 0) {
    // Matches no row while an endpoint is healthy, so successes take no endpoint lock.
    await tx.$executeRaw`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ANY(${recovered}::text[]) AND failing_since IS NOT NULL`;
  }
  const disabled = new Set<string>();
  if (failing.length === 0) return disabled;

  // Locked in id order: concurrent batches naming the same endpoints cannot deadlock on them.
  await tx.$queryRaw`SELECT id FROM webhook_endpoints WHERE id = ANY(${failing.map((f) => f.id)}::text[]) ORDER BY id FOR UPDATE`;
  const marked = await tx.$queryRaw<{ id: string; status: string; failing_since: Date; deleted_at: Date | null; last_failure: Date }[]>`
    UPDATE webhook_endpoints e
    SET failing_since = CASE WHEN v.reset THEN v.first_failure ELSE COALESCE(e.failing_since, v.first_failure) END
    FROM unnest(${failing.map((f) => f.id)}::text[], ${failing.map((f) => f.firstFailure)}::timestamptz[], ${failing.map((f) => f.reset)}::boolean[], ${failing.map((f) => f.lastFailure)}::timestamptz[])
      AS v(id, first_failure, reset, last_failure)
    WHERE e.id = v.id
    RETURNING e.id, e.status, e.failing_since, e.deleted_at, v.last_failure`;
  for (const endpoint of marked) {
    if (endpoint.status !== 'ACTIVE' || endpoint.deleted_at !== null) continue;
    if (endpoint.last_failure.getTime() - endpoint.failing_since.getTime() < ENDPOINT_DISABLE_AFTER_MS) continue;
    await tx.webhookEndpoint.update({
      where: { id: endpoint.id },
      data: {
        status: 'DISABLED',
        disabledReason: `Every delivery failed from ${formatDateTime(endpoint.failing_since)} to ${formatDateTime(endpoint.last_failure)}; patch status to ACTIVE to resume.`,
        updatedAt: endpoint.last_failure,
      },
    });
    await cancelPendingDeliveries(tx, endpoint.id, endpoint.last_failure);
    disabled.add(endpoint.id);
  }
  return disabled;
}
