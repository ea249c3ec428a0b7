import { formatDateTime } from '../../domain/datetime';
import { ApiError } from '../../domain/errors';
import { EVENT_TYPES } from '../../domain/event-catalogue';
import { firstIdAt } from '../../domain/ids';
import type { Prisma } from '../../prisma/client';

/**
 * How many test events one endpoint takes per minute (docs/webhooks.md, "Test events"): enough to
 * try a receiver, too few for send-test-event to flood a URL someone else owns.
 */
export const TEST_EVENTS_PER_ENDPOINT = 10;
export const TEST_EVENT_WINDOW_MS = 60_000;

/**
 * Refuses a test event to an endpoint that took TEST_EVENTS_PER_ENDPOINT in the last minute: 429
 * RATE_LIMIT, `next_try_at` when the oldest of them leaves the window. Counted from the endpoint's
 * WEBHOOK_TEST deliveries, so every API process and every key of the account share one quota,
 * and test events made concurrently for one endpoint are counted one after the other (a lock per
 * endpoint, held until the caller's transaction ends).
 */
export async function checkTestEventQuota(tx: Prisma.TransactionClient, endpointId: string, now: Date): Promise<void> {
  await tx.$queryRaw`SELECT true AS locked FROM pg_advisory_xact_lock(hashtextextended(${`webhook-test-events:${endpointId}`}, 0))`;
  const since = new Date(now.getTime() - TEST_EVENT_WINDOW_MS);
  // The id range finds the last minute's deliveries on the (endpoint_id, id) index; created_at says which count.
  const [window] = await tx.$queryRaw<{ sent: number; oldest: Date | null }[]>`
    SELECT count(*)::int AS sent, min(created_at) AS oldest FROM webhook_deliveries
    WHERE endpoint_id = ${endpointId} AND id >= ${firstIdAt('webhookDelivery', since.getTime())}
      AND event_type = ${EVENT_TYPES.WebhookTest} AND created_at > ${since}`;
  if (!window || window.sent < TEST_EVENTS_PER_ENDPOINT || !window.oldest) return;
  const nextTryAt = formatDateTime(new Date(window.oldest.getTime() + TEST_EVENT_WINDOW_MS));
  throw new ApiError(
    'RATE_LIMIT',
    `Webhook endpoint ${endpointId} took ${TEST_EVENTS_PER_ENDPOINT} test events in the last minute, the most it takes; retry at ${nextTryAt}.`,
    { next_try_at: nextTryAt },
  );
}
