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

/** What lockEndpointsToNote found: the endpoints that were already failing, which a success clears. */
export type FailingEndpoints = ReadonlySet<string>;

/**
 * Takes, in id order, the row locks noteAttemptOutcomes will need for these outcomes: the
 * endpoints of failures, and those already failing (a success clears them). Called before the
 * caller locks any delivery: webhooks/patch and delete lock an endpoint and then its deliveries,
 * so a recorder taking a delivery first and its endpoint second deadlocks with them
 * (docs/webhooks.md, "Lock order"). Returns the endpoints that were failing: noteAttemptOutcomes
 * clears only those, so it writes no endpoint this did not lock. One that starts failing after
 * this statement keeps its mark through this batch's successes: they were concurrent.
 */
export async function lockEndpointsToNote(tx: Db, outcomes: AttemptOutcome[]): Promise<FailingEndpoints> {
  if (outcomes.length === 0) return new Set();
  const all = [...new Set(outcomes.map((o) => o.endpointId))];
  const failed = [...new Set(outcomes.filter((o) => !o.succeeded).map((o) => o.endpointId))];
  const locked = await tx.$queryRaw<{ id: string; failing: boolean }[]>`
    SELECT id, failing_since IS NOT NULL AS failing FROM webhook_endpoints
    WHERE id = ANY(${all}::text[]) AND (id = ANY(${failed}::text[]) OR failing_since IS NOT NULL)
    ORDER BY id FOR UPDATE`;
  return new Set(locked.filter((row) => row.failing).map((row) => row.id));
}

/**
 * Notes attempts' outcomes on their endpoints (docs/webhooks.md, "Endpoints that keep failing"),
 * for the sender's batches and the retry workflows' single attempts alike: a success clears the
 * endpoint's `failing_since`, the first failure after it sets it; once an endpoint has failed for
 * ENDPOINT_DISABLE_AFTER_MS with no success in between, it is DISABLED and everything still
 * pending for it is cancelled. `failing` is what lockEndpointsToNote returned for a superset of
 * these outcomes, in the same transaction. Returns the endpoints this call disabled.
 */
export async function noteAttemptOutcomes(tx: Db, outcomes: AttemptOutcome[], failing: FailingEndpoints): Promise<Set<string>> {
  const recovered: string[] = [];
  const failures: { id: string; firstFailure: string; reset: boolean; lastFailure: string }[] = [];
  for (const endpointId of [...new Set(outcomes.map((o) => o.endpointId))].sort()) {
    const own = outcomes.filter((o) => o.endpointId === endpointId).sort((a, b) => a.at.getTime() - b.at.getTime());
    const lastSuccess = [...own].reverse().find((o) => o.succeeded);
    const failuresAfter = own.filter((o) => !o.succeeded && (!lastSuccess || o.at > lastSuccess.at));
    if (failuresAfter.length === 0) {
      // Healthy when locked: nothing to clear, and no statement (every success of a healthy endpoint).
      if (failing.has(endpointId)) recovered.push(endpointId);
    } else {
      failures.push({
        id: endpointId,
        firstFailure: failuresAfter[0]!.at.toISOString(),
        // A success in the batch ends the run of failures: the run restarts at the first failure after it.
        reset: lastSuccess !== undefined,
        lastFailure: failuresAfter[failuresAfter.length - 1]!.at.toISOString(),
      });
    }
  }
  if (recovered.length > 0) {
    await tx.$executeRaw`UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ANY(${recovered}::text[])`;
  }
  const disabled = new Set<string>();
  if (failures.length === 0) return disabled;

  // Every endpoint with a failure here was locked, in id order, by lockEndpointsToNote.
  const marked = await tx.$queryRaw<{ id: string; status: string; failing_since: Date; deleted_at: Date | null; last_failure: Date }[]>`
    UPDATE webhook_endpoints e
    SET failing_since = CASE WHEN v.reset THEN v.first_failure ELSE COALESCE(e.failing_since, v.first_failure) END
    FROM unnest(${failures.map((f) => f.id)}::text[], ${failures.map((f) => f.firstFailure)}::timestamptz[], ${failures.map((f) => f.reset)}::boolean[], ${failures.map((f) => f.lastFailure)}::timestamptz[])
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
