import { Runtime } from '@temporalio/worker';
import type { Database } from '../prisma/client';
import { DISPATCH_BATCH_SIZE, dispatchOutboxBatch } from '../services/webhooks/outbox-dispatch';

/** How long an idle dispatcher waits before looking again; OUTBOX_POLL_INTERVAL_MS overrides it. */
export const DEFAULT_POLL_INTERVAL_MS = 100;

export interface OutboxDispatcher {
  /** Resolves once the loop has ended, after `isStopping` turned true. */
  stopped: Promise<void>;
}

/** OUTBOX_POLL_INTERVAL_MS, shared by the dispatcher and the sender. */
export function outboxPollIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.OUTBOX_POLL_INTERVAL_MS);
  return Number.isFinite(configured) && configured > 0 ? configured : DEFAULT_POLL_INTERVAL_MS;
}

/**
 * The dispatcher loop each worker process runs beside its Temporal worker (docs/webhooks.md,
 * "Dispatch"): a batch (services/webhooks/dispatch.ts), then at once another while batches come
 * back full, else a pause of OUTBOX_POLL_INTERVAL_MS. `onQueued` hears of deliveries it queued,
 * so the sender of the same process starts on them without waiting for its own poll. It is no
 * Temporal activity on purpose: an activity that never ends would hold Temporal's time-skipping
 * clock still in tests, and a workflow timer per poll would cost a workflow task every 100 ms.
 * Nothing is lost by that: what is not dispatched stays in the outbox until a dispatcher runs again.
 */
export function runOutboxDispatcher(db: Database, isStopping: () => boolean, onQueued: () => void = () => {}): OutboxDispatcher {
  const pollMs = outboxPollIntervalMs();
  const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));
  const loop = async () => {
    let failures = 0;
    while (!isStopping()) {
      try {
        const { events, deliveries } = await dispatchOutboxBatch(db, { shouldStop: isStopping });
        failures = 0;
        if (deliveries > 0) onQueued();
        if (events < DISPATCH_BATCH_SIZE) await pause(pollMs);
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
