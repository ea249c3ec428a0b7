import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities } from '../activities';
import { TASK_QUEUE } from '../domain/workflow-ids';
import type { Database } from '../prisma/client';

export interface WorkerDependencies {
  connection: NativeConnection;
  db: Database;
  namespace?: string;
  taskQueue?: string;
  /** A pre-built bundle (`bundleWorkflowCode`), so tests and production skip bundling at start. */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** 0 turns off sticky execution: every workflow task replays its history from the start. */
  maxCachedWorkflows?: number;
}

export function createWorker(deps: WorkerDependencies): Promise<Worker> {
  return Worker.create({
    connection: deps.connection,
    namespace: deps.namespace ?? 'default',
    taskQueue: deps.taskQueue ?? TASK_QUEUE,
    activities: createActivities({ db: deps.db }),
    ...(deps.maxCachedWorkflows !== undefined ? { maxCachedWorkflows: deps.maxCachedWorkflows } : {}),
    ...(deps.workflowBundle ? { workflowBundle: deps.workflowBundle } : { workflowsPath: require.resolve('../workflows') }),
  });
}
