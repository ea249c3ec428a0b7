import { Client } from '@temporalio/client';
import { NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities';
import { outboxPollIntervalMs, runOutboxDispatcher } from '../activities/outbox-dispatch';
import { TASK_QUEUE } from '../domain/workflow-ids';
import type { Database } from '../prisma/client';
import { maxCachedWorkflowsFromEnv } from './workflow-cache';
import { runWebhookSender } from '../services/webhooks/sender';
import { startDeliveryRetry } from '../services/workflows/webhook-delivery';

export interface WorkerDependencies {
  connection: NativeConnection;
  db: Database;
  namespace?: string;
  taskQueue?: string;
  /** A pre-built bundle (`bundleWorkflowCode`), so tests and production skip bundling at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** 0 turns off sticky execution: every workflow task replays its history from the start. Default: WORKER_MAX_CACHED_WORKFLOWS (worker/workflow-cache.ts). */
  maxCachedWorkflows?: number;
  /** false: no outbox dispatcher and no webhook sender beside this worker (docs/webhooks.md, "Dispatch"). */
  outboxDispatch?: boolean;
  /** The webhook sender's clock; the tests hand in the time-skipping server's, which its retry workflows use. */
  clock?: () => Promise<Date>;
  /** How long a stopping worker lets running activities finish before it cancels them (docs/deployment.md). */
  shutdownGraceMs?: number;
}

export async function createWorker(deps: WorkerDependencies): Promise<Worker> {
  const worker = await Worker.create({
    connection: deps.connection,
    namespace: deps.namespace ?? 'default',
    taskQueue: deps.taskQueue ?? TASK_QUEUE,
    activities: createActivities({ db: deps.db }),
    maxCachedWorkflows: deps.maxCachedWorkflows ?? maxCachedWorkflowsFromEnv(),
    // The force time bounds a shutdown whose activities ignore cancellation.
    ...(deps.shutdownGraceMs !== undefined ? { shutdownGraceTime: deps.shutdownGraceMs, shutdownForceTime: deps.shutdownGraceMs + 10_000 } : {}),
    ...(deps.workflowBundle ? { workflowBundle: deps.workflowBundle } : { workflowsPath: require.resolve('../workflows') }),
  });
  if (deps.outboxDispatch !== false) {
    // Both live as long as the worker: they stop as soon as it begins to shut down.
    const isStopping = () => !['INITIALIZED', 'RUNNING'].includes(worker.getState());
    const temporal = new Client({ connection: deps.connection, namespace: deps.namespace ?? 'default' });
    const sender = runWebhookSender(
      { db: deps.db, startRetry: (retry) => startDeliveryRetry(temporal, retry), clock: deps.clock, logger: Runtime.instance().logger, pollMs: outboxPollIntervalMs() },
      isStopping,
    );
    const dispatcher = runOutboxDispatcher(deps.db, isStopping, sender.wake);
    backgrounds.set(worker, async () => {
      await Promise.all([sender.stop(), dispatcher.stopped]);
    });
  }
  return worker;
}

const backgrounds = new WeakMap<Worker, () => Promise<void>>();

/**
 * Waits until the outbox dispatcher and the webhook sender beside `worker` have finished what
 * they hold: the attempts in flight answered and recorded. Call it once `worker.run()` has
 * resolved and before the database closes; otherwise those attempts stay leased and are sent
 * again when their lease expires.
 */
export async function drainWorkerBackground(worker: Worker): Promise<void> {
  await backgrounds.get(worker)?.();
}
