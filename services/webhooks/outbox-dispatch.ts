import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import { fanOutEvents } from './fan-out';

/** Events claimed per transaction. */
export const DISPATCH_BATCH_SIZE = 200;

interface ClaimedEvent {
  id: string;
  account_id: string;
  channel_id: string | null;
  event_type: string;
  occurred_at: Date;
}

export interface DispatchResult {
  /** Events claimed and marked dispatched. */
  events: number;
  /** Deliveries queued for the sender. */
  deliveries: number;
}

/**
 * Whether any committed event waits (one probe of the `(dispatched_at, id)` index), asked before
 * the claim's transaction: an idle dispatcher polls ten times a second, and an empty claim costs
 * four round trips and a Prisma transaction where this costs one prepared statement.
 */
const eventWaiting = sqlStatement('outbox.event_waiting', 'SELECT EXISTS (SELECT 1 FROM outbox_events WHERE dispatched_at IS NULL) AS "waiting"');

/**
 * Hands one batch of committed, undispatched outbox events to their deliveries
 * (docs/webhooks.md, "Dispatch"), in one transaction: claims up to `batchSize` undispatched
 * events with FOR UPDATE SKIP LOCKED, so dispatchers of several workers share the work and never
 * take the same event; queues a PENDING delivery per subscribed endpoint
 * (services/webhooks/fan-out.ts); marks the events dispatched; commits. Nothing leaves the
 * database, so a crash at any point either commits all of it or leaves the events for the next
 * run. `shouldStop` is asked once the claim is held: a stopping worker commits nothing.
 */
export async function dispatchOutboxBatch(db: Database, options: { batchSize?: number; shouldStop?: () => boolean } = {}): Promise<DispatchResult> {
  const batchSize = options.batchSize ?? DISPATCH_BATCH_SIZE;
  const [probe] = await readRows<{ waiting: boolean }>(db, eventWaiting, []);
  if (!probe?.waiting) return { events: 0, deliveries: 0 };
  return db.$transaction(async (tx) => {
    const events = await tx.$queryRaw<ClaimedEvent[]>`
      SELECT id, account_id, channel_id, event_type, occurred_at FROM outbox_events
      WHERE dispatched_at IS NULL ORDER BY id LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`;
    if (events.length === 0 || options.shouldStop?.()) return { events: 0, deliveries: 0 };

    const now = new Date();
    const deliveries = await fanOutEvents(
      tx,
      events.map((e) => ({ id: e.id, accountId: e.account_id, channelId: e.channel_id, eventType: e.event_type, occurredAt: e.occurred_at })),
      now,
    );
    // By key over an array, for the reason fan-out inserts so: Prisma's per-value query building.
    await tx.$executeRaw`UPDATE outbox_events SET dispatched_at = ${now.toISOString()}::timestamptz WHERE id = ANY(${events.map((e) => e.id)}::text[])`;
    return { events: events.length, deliveries };
  });
}
