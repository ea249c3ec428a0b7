import type { EventName } from '../event-catalogue';
import { requireTransition, type SubscriptionStatus } from '../subscription-status';
import type { InvoiceKind } from './billing';
import { touch, type Step, type SubscriptionState } from './state';

export function dunningStarted(state: SubscriptionState, now: number): Step {
  requireTransition('dunningStarted', state.status);
  return { state: touch(state, now, { status: 'REDEMPTION' }), events: ['SubscriptionRedemptionStarted'] };
}

/**
 * The invoice of `kind` is settled: paid (or voided by the merchant, who waived it) or not.
 * Paid: back to TRIALING for a PAID trial still running, else ACTIVE. Not paid: UNPAID.
 */
export function paymentSettled(state: SubscriptionState, kind: InvoiceKind, paid: boolean, now: number): Step {
  if (!paid) {
    requireTransition('unpaid', state.status);
    return { state: touch(state, now, { status: 'UNPAID' }), events: ['SubscriptionUnpaid'] };
  }
  requireTransition('paid', state.status);
  const trialRunning = kind === 'trial' && state.trial !== null && (state.trial.endAt === null || state.trial.endAt > now);
  const status: SubscriptionStatus = trialRunning ? 'TRIALING' : 'ACTIVE';
  let events: EventName[];
  if (status === 'TRIALING') events = ['SubscriptionTrialActivated'];
  else if (state.status !== 'ACTIVE') events = ['SubscriptionActivated'];
  else events = kind === 'cycle' ? ['SubscriptionRenewed'] : [];
  if (status === state.status && events.length === 0) return { state, events };
  return { state: touch(state, now, { status }), events };
}
