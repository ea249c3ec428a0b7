import { sleep } from '@temporalio/workflow';

/**
 * Bench only (`npm run bench:worker-memory`): the smallest workflow a worker can host, so a bare
 * worker has something to bundle and poll for; it waits `idleMs`, like the platform's workflows
 * that wait weeks between tasks, and does nothing.
 */
export async function noopWorkflow(idleMs: number): Promise<void> {
  if (idleMs > 0) await sleep(idleMs);
}
