import type { Client } from '@temporalio/client';
import type { Database } from '../../prisma/client';
import { fanOutEvents } from './fan-out';

/** Events claimed per transaction; each becomes one workflow start per subscribed endpoint. */
export const DISPATCH_BATCH_SIZE = 200;

export interface OutboxDispatchDependencies {
  db: Database;
  temporal: Client;
  /** The client is on the worker's own NativeConnection (services/workflows/webhook-delivery.ts). */
  eagerStart?: boolean;
}

interface ClaimedEvent {
  id: string;
  account_id: string;
  channel_id: string | null;
  event_type: string;
  occurred_at: Date;
}

/**
 * Hands one batch of committed, undispatched outbox events to their deliveries
 * (docs/webhooks.md, "Dispatch"), in one transaction:
 *
 * 1. claims up to `batchSize` undispatched events with FOR UPDATE SKIP LOCKED, so dispatchers
 *    of several workers share the work and never take the same event;
 * 2. fans each out to the endpoints subscribed to it (services/webhooks/fan-out.ts): starts their
 *    delivery workflows and records the deliveries;
 * 3. marks the events dispatched, then commits.
 *
 * A crash before the commit leaves the events undispatched for the next run. `shouldStop` is
 * asked once the claim is held: a stopping worker commits nothing and leaves the events to the
 * next dispatcher. Returns how many events it claimed.
 */
export async function dispatchOutboxBatch(
  deps: OutboxDispatchDependencies,
  options: { batchSize?: number; shouldStop?: () => boolean } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? DISPATCH_BATCH_SIZE;
  return deps.db.$transaction(
    async (tx) => {
      const events = await tx.$queryRaw<ClaimedEvent[]>`
        SELECT id, account_id, channel_id, event_type, occurred_at FROM outbox_events
        WHERE dispatched_at IS NULL ORDER BY id LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`;
      if (events.length === 0 || options.shouldStop?.()) return 0;

      const now = new Date();
      await fanOutEvents(
        { tx, temporal: deps.temporal, eagerStart: deps.eagerStart },
        events.map((e) => ({ id: e.id, accountId: e.account_id, channelId: e.channel_id, eventType: e.event_type, occurredAt: e.occurred_at })),
        now,
      );
      await tx.outboxEvent.updateMany({ where: { id: { in: events.map((e) => e.id) } }, data: { dispatchedAt: now } });
      return events.length;
    },
    // Up to a few hundred workflow starts happen inside: far beyond Prisma's 5 s default.
    { timeout: 120_000, maxWait: 10_000 },
  );
}
