import { proxyActivities, sleep } from '@temporalio/workflow';

/**
 * Bench only (`npm run bench:renewals`), run by its own worker on its own task queue and never
 * part of workflows/index.ts: the least a renewal can cost in Temporal, one timer to the cycle
 * boundary and one activity, so the real subscription renewals have a ceiling to compare with.
 */

export interface CeilingActivities {
  renewCeiling(): Promise<void>;
}

const { renewCeiling } = proxyActivities<CeilingActivities>({ startToCloseTimeout: '1 minute' });

export async function renewalCeilingWorkflow(boundaryMs: number): Promise<void> {
  // Date.now() is the workflow's own clock here: the time of the task, recorded in history.
  const wait = boundaryMs - Date.now();
  if (wait > 0) await sleep(wait);
  await renewCeiling();
}
