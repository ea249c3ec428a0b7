import { proxyActivities, setCurrentDetails, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { formatDateTime } from '../domain/datetime';
import { waitingUntil } from '../domain/workflow-details';

const { expirePaymentInstrument } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

export interface PaymentInstrumentExpiryInput {
  paymentInstrumentId: string;
  /** The end of the card's expiry month (ISO 8601), when it stops being chargeable. */
  expiresAt: string;
}

/** One timer at most this long: a card expiring in ten years costs ten timers of history. */
const MAX_TIMER_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * Expires a saved card at the end of its expiry month, durably: the timer lives in Temporal,
 * so no process needs to be up in between. The delay is recomputed from workflow time after
 * each timer (`Date.now()` is the replayed, deterministic workflow clock), so the card never
 * expires early whatever a timer's length. A revoked instrument is left as it is by the
 * activity, so revoking needs no call to Temporal.
 */
export async function paymentInstrumentExpiryWorkflow(input: PaymentInstrumentExpiryInput): Promise<{ expired: boolean }> {
  const deadline = Date.parse(input.expiresAt);
  setCurrentDetails(waitingUntil(deadline, `to expire payment instrument ${input.paymentInstrumentId}`));
  for (let remaining = deadline - Date.now(); remaining > 0; remaining = deadline - Date.now()) {
    await sleep(Math.min(remaining, MAX_TIMER_MS));
  }
  setCurrentDetails(`Expiring payment instrument ${input.paymentInstrumentId}`);
  return expirePaymentInstrument.executeWithOptions(
    { summary: `Expire payment instrument ${input.paymentInstrumentId}: its card stops being chargeable at ${formatDateTime(new Date(deadline))}` },
    [input],
  );
}
