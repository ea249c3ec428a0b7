import { continueAsNew, proxyActivities, setCurrentDetails, sleep, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { retentionSummary } from '../domain/maintenance-summaries';
import { runDetails, waitingUntil } from '../domain/workflow-details';

// One purge can run through millions of rows on its first run: a long start-to-close, and the
// heartbeat after every batch is what tells a stuck one from a busy one.
const activities = proxyActivities<Activities>({
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', maximumInterval: '10 minutes' },
});

/**
 * The steps in their order: a delivery's attempts before the delivery, the deliveries before the
 * events they refer to, so no statement cascades and no event goes while a delivery names it.
 */
const STEPS: ReadonlyArray<readonly [Extract<keyof Activities, `retain${string}`>, string]> = [
  ['retainWebhookDeliveryAttempts', 'Delete the attempts of final webhook deliveries past their retention'],
  ['retainWebhookDeliveries', 'Delete final webhook deliveries past their retention'],
  ['retainOutboxEvents', 'Delete dispatched outbox events past their retention that no delivery names'],
  ['retainDashboardAuditLog', 'Delete dashboard audit rows past their retention'],
  ['retainCustomerPortalSessions', 'Delete customer portal links and sessions past their retention'],
  ['retainDashboardInvitations', 'Delete dashboard invitations expired longer than their retention'],
  ['retainDashboardPasswordResets', 'Delete dashboard password resets expired longer than their retention'],
  ['retainStripeEvents', 'Delete applied Stripe events past their retention'],
  ['retainRateLimitBuckets', 'Delete rate-limit buckets untouched for their retention'],
];

export interface RetentionInput {
  intervalMinutes: number;
  /** Runs left before continuing as new; the test lowers it to prove the hand-over. */
  runsPerExecution?: number;
}

/**
 * Deletes what each growing table keeps past its retention (docs/retention.md), one activity per
 * table, every `intervalMinutes`, forever. One execution does a bounded number of runs, then
 * continues as new, so its history never grows.
 */
export async function retentionWorkflow(input: RetentionInput): Promise<void> {
  const runs = input.runsPerExecution ?? 50;
  const summary = retentionSummary(input.intervalMinutes);
  for (let run = 0; run < runs && !workflowInfo().continueAsNewSuggested; run++) {
    const which = `run ${run + 1} of ${runs} before this execution continues as new`;
    for (const [name, what] of STEPS) {
      setCurrentDetails(runDetails(summary, `${what} (${which})`));
      await activities[name].executeWithOptions({ summary: `${what} (${which})` }, []);
    }
    const wait = input.intervalMinutes * 60_000;
    setCurrentDetails(runDetails(summary, waitingUntil(Date.now() + wait, `after ${which}`)));
    await sleep(wait);
  }
  await continueAsNew<typeof retentionWorkflow>(input);
}
