import { continueAsNew, proxyActivities, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';

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
  for (let run = 0; run < runs && !workflowInfo().continueAsNewSuggested; run++) {
    const swept = await sweepAbandonedPayments({ limit: input.batchSize ?? 100 });
    if (!swept.more) await sleep(input.intervalMinutes * 60_000);
  }
  await continueAsNew<typeof paymentSweepWorkflow>(input);
}
