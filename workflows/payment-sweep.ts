import { continueAsNew, proxyActivities, setCurrentDetails, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { paymentSweepSummary } from '../domain/maintenance-summaries';
import { runDetails, waitingUntil } from '../domain/workflow-details';

const { sweepAbandonedPayments } = proxyActivities<Activities>({
  // A batch is at most `batchSize` charges and refunds, each bounded by the payment's 2-minute claim lease.
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '5 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '10 minutes' },
});

export interface PaymentSweepWorkflowInput {
  intervalMinutes: number;
  /** Pay claims and refunds finished per activity, at most; default 100. */
  batchSize?: number;
  /** Runs left before continuing as new; the test lowers it to prove the hand-over. */
  runsPerExecution?: number;
}

/**
 * Finishes abandoned manual pays and refunds (docs/invoice-payments.md, "The payment sweeper"),
 * every `intervalMinutes`, forever; a full batch is followed at once by the next. One execution
 * does a bounded number of runs, then continues as new, so its history never grows.
 */
export async function paymentSweepWorkflow(input: PaymentSweepWorkflowInput): Promise<void> {
  const runs = input.runsPerExecution ?? 100;
  const limit = input.batchSize ?? 100;
  const summary = paymentSweepSummary(input.intervalMinutes);
  for (let run = 0; run < runs && !workflowInfo().continueAsNewSuggested; run++) {
    const which = `sweep ${run + 1} of ${runs} before this run continues as new`;
    setCurrentDetails(runDetails(summary, `Running ${which}`));
    const swept = await sweepAbandonedPayments.executeWithOptions({ summary: `Finish up to ${limit} abandoned pays and refunds (${which})` }, [{ limit }]);
    if (!swept.more) {
      const wait = input.intervalMinutes * 60_000;
      setCurrentDetails(runDetails(summary, waitingUntil(Date.now() + wait, `after ${which}`)));
      await sleep(wait);
    }
  }
  await continueAsNew<typeof paymentSweepWorkflow>(input);
}
