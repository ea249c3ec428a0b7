import { proxyActivities, setCurrentDetails, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { RETRY_DELAYS_MS } from '../domain/webhook-retry-schedule';
import { waitingUntil } from '../domain/workflow-details';

// A regular activity, not a local one: a local activity is lost with the workflow when the worker
// evicts it from its cache mid-attempt (the tests run without a cache and showed it), and its
// POST would then be sent again.
const { attemptWebhookDelivery } = proxyActivities<Activities>({
  // The request's own timeout (WEBHOOK_DELIVERY_TIMEOUT_MS, 10 s by default) plus the bookkeeping.
  startToCloseTimeout: '2 minutes',
  // Only the platform's own failures are retried here (database, secrets), without limit: the
  // receiver's answers follow the schedule below, as timers the delivery log can show.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

export interface WebhookDeliveryInput {
  eventId: string;
  endpointId: string;
  /** 1 for the first delivery; a redelivery continues the numbering. */
  firstAttempt: number;
  /** The delivery's `next_attempt_at` this run starts from (services/webhooks/delivery-attempt.ts). */
  claim: string;
  /** Started by webhooks/redeliver, which writes the delivery row itself. */
  redelivery?: boolean;
  /**
   * Started after attempt `firstAttempt - 1` failed (by the sender, or again by its sweep;
   * docs/webhooks.md, "Delivery"): waits until `claim`, then continues the retry schedule where
   * that attempt left it, and counts the attempts before it in its result. Absent in runs started
   * before the sender existed, which keep their commands.
   */
  retry?: boolean;
}

export interface WebhookDeliveryResult {
  status: 'SUCCEEDED' | 'FAILED' | 'STOPPED';
  attempts: number;
}

/**
 * Delivers one event to one endpoint (docs/webhooks.md): an attempt, and after a failure the
 * next one on the retry schedule (1 m, 4 m, 16 m, … 24 h; ten attempts), as durable timers.
 * Its id (`<event>/delivery/<endpoint>`, or `…/redelivery/<first attempt>/<claim>`) is what makes
 * a delivery start once. History is bounded by the ten attempts.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  let claim = input.claim;
  const before = input.retry ? input.firstAttempt - 1 : 0;
  if (input.retry) {
    // Workflow time, the clock of the timers: the sender wrote the claim from the same clock.
    const wait = Date.parse(claim) - Date.now();
    if (wait > 0) {
      setCurrentDetails(waitingUntil(Date.parse(claim), `for attempt ${input.firstAttempt}: POST ${input.eventId} to ${input.endpointId}`));
      await sleep(wait);
    }
  }
  for (let n = 0; ; n++) {
    const made = before + n;
    const retryInMs = made < RETRY_DELAYS_MS.length ? RETRY_DELAYS_MS[made]! : null;
    const attempt = input.firstAttempt + n;
    const result = await attemptWebhookDelivery.executeWithOptions({ summary: `Attempt ${attempt}: POST ${input.eventId} to ${input.endpointId}` }, [
      {
        eventId: input.eventId,
        endpointId: input.endpointId,
        attempt,
        claim,
        // Workflow time: recorded in history, so replay passes the same instant.
        at: new Date().toISOString(),
        retryInMs,
        createIfMissing: n === 0 && !input.redelivery && !input.retry,
      },
    ]);
    if (result.status !== 'PENDING') return { status: result.status, attempts: made + 1 };
    claim = result.claim;
    setCurrentDetails(waitingUntil(Date.now() + retryInMs!, `for attempt ${attempt + 1}: POST ${input.eventId} to ${input.endpointId}`));
    await sleep(retryInMs!);
  }
}
