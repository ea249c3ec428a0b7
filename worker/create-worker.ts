import { Client } from '@temporalio/client';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities';
import { runOutboxDispatcher } from '../activities/outbox-dispatch';
import { TASK_QUEUE } from '../domain/workflow-ids';
import type { Database } from '../prisma/client';
import { maxCachedWorkflowsFromEnv } from './workflow-cache';

export interface WorkerDependencies {
  connection: NativeConnection;
  db: Database;
  namespace?: string;
  taskQueue?: string;
  /** A pre-built bundle (`bundleWorkflowCode`), so tests and production skip bundling at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** 0 turns off sticky execution: every workflow task replays its history from the start. Default: WORKER_MAX_CACHED_WORKFLOWS (worker/workflow-cache.ts). */
  maxCachedWorkflows?: number;
  /** false: no outbox dispatcher beside this worker (docs/webhooks.md, "Dispatch"). */
  outboxDispatch?: boolean;
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
    // Lives as long as the worker: it stops dispatching as soon as the worker begins to shut down.
    const temporal = new Client({ connection: deps.connection, namespace: deps.namespace ?? 'default' });
    runOutboxDispatcher({ db: deps.db, temporal, eagerStart: true }, () => !['INITIALIZED', 'RUNNING'].includes(worker.getState()));
  }
  return worker;
}
