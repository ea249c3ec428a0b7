import type { Client } from '@temporalio/client';
import { Runtime } from '@temporalio/worker';
import type { Database } from '../prisma/client';
import { fanOutEvents } from '../services/webhooks/fan-out';

/** Events claimed per transaction; each becomes one workflow start per subscribed endpoint. */
export const DISPATCH_BATCH_SIZE = 200;
/** How long an idle dispatcher waits before looking again; OUTBOX_POLL_INTERVAL_MS overrides it. */
export const DEFAULT_POLL_INTERVAL_MS = 100;

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

export interface OutboxDispatcher {
  /** Resolves once the loop has ended, after `isStopping` turned true. */
  stopped: Promise<void>;
}

/**
 * The dispatcher loop each worker process runs beside its Temporal worker (docs/webhooks.md,
 * "Dispatch"): a batch, then at once another while batches come back full, else a pause of
 * OUTBOX_POLL_INTERVAL_MS. It is no Temporal activity on purpose: an activity that never ends
 * would hold Temporal's time-skipping clock still in tests, and a workflow timer per poll would
 * cost a workflow task every 100 ms. Nothing is lost by that: what is not dispatched stays in
 * the outbox until a dispatcher runs again.
 */
export function runOutboxDispatcher(deps: OutboxDispatchDependencies, isStopping: () => boolean): OutboxDispatcher {
  const configured = Number(process.env.OUTBOX_POLL_INTERVAL_MS);
  const pollMs = Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_POLL_INTERVAL_MS;
  const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
  const loop = async () => {
    let failures = 0;
    while (!isStopping()) {
      try {
        const claimed = await dispatchOutboxBatch(deps, { shouldStop: isStopping });
        failures = 0;
        if (claimed < DISPATCH_BATCH_SIZE) await pause(pollMs);
      } catch (error) {
        if (isStopping()) return;
        failures++;
        Runtime.instance().logger.warn('Outbox dispatch failed; retrying', { error: String(error), failures });
        await pause(Math.min(30_000, 500 * 2 ** failures));
      }
    }
  };
  return { stopped: loop() };
}
