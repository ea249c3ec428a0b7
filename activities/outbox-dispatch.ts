import { Runtime } from '@temporalio/worker';
import { dispatchOutboxBatch, DISPATCH_BATCH_SIZE, type OutboxDispatchDependencies } from '../services/webhooks/outbox-dispatch';

/** How long an idle dispatcher waits before looking again; OUTBOX_POLL_INTERVAL_MS overrides it. */
export const DEFAULT_POLL_INTERVAL_MS = 100;

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
