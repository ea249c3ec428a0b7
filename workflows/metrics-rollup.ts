import { continueAsNew, proxyActivities, setCurrentDetails, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { metricsRollupSummary } from '../domain/maintenance-summaries';
import { runDetails, waitingUntil } from '../domain/workflow-details';

const { foldMetricsDayChanges } = proxyActivities<Activities>({
  // A backlog (the worker down for a day) is folded in batches, each heartbeating.
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '5 minutes' },
});

export interface MetricsRollupInput {
  intervalMinutes: number;
  /** Runs left before continuing as new; the test lowers it to prove the hand-over. */
  runsPerExecution?: number;
}

/**
 * Folds what payments and refunds changed into the overview's daily roll-up (docs/metrics.md,
 * "Daily roll-up") every `intervalMinutes`, forever, so the changes a reader adds up stay few.
 * The figures never wait for it: a reader adds the changes not folded yet. One execution does a
 * bounded number of runs, then continues as new, so its history never grows.
 */
export async function metricsRollupWorkflow(input: MetricsRollupInput): Promise<void> {
  const runs = input.runsPerExecution ?? 200;
  const summary = metricsRollupSummary(input.intervalMinutes);
  for (let run = 0; run < runs && !workflowInfo().continueAsNewSuggested; run++) {
    const which = `fold ${run + 1} of ${runs} before this run continues as new`;
    setCurrentDetails(runDetails(summary, `Running ${which}`));
    await foldMetricsDayChanges.executeWithOptions({ summary: `Fold the day changes of payments and refunds (${which})` }, []);
    const wait = input.intervalMinutes * 60_000;
    setCurrentDetails(runDetails(summary, waitingUntil(Date.now() + wait, `after ${which}`)));
    await sleep(wait);
  }
  await continueAsNew<typeof metricsRollupWorkflow>(input);
}
