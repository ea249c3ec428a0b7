import { proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';

/**
 * Bench only (`npm run bench:renewals`), run by its own worker on its own task queue and never
 * part of workflows/index.ts: the least a renewal can cost in Temporal, one timer to the cycle
 * boundary and one activity, so the real subscription renewals have a ceiling to compare with.
 * With `local`, the activity runs as a local activity, as the platform's renewal does: the
 * ceiling of that shape.
 */

export interface CeilingActivities {
  renewCeiling(): Promise<void>;
}

const { renewCeiling } = proxyActivities<CeilingActivities>({ startToCloseTimeout: '1 minute' });
const { renewCeiling: renewCeilingLocally } = proxyLocalActivities<CeilingActivities>({ startToCloseTimeout: '1 minute' });

export async function renewalCeilingWorkflow(boundaryMs: number, local = false): Promise<void> {
  // Date.now() is the workflow's own clock here: the time of the task, recorded in history.
  const wait = boundaryMs - Date.now();
  if (wait > 0) await sleep(wait);
  await (local ? renewCeilingLocally() : renewCeiling());
}
