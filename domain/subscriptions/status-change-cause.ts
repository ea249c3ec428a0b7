import { CANCELLATION_REASONS, type SubscriptionStatus } from '../subscription-status';
import type { SubscriptionState } from './state';

/**
 * Why a subscription's status changed, as its status history records it
 * (docs/subscriptions.md, "Status history"). A move to CANCELLED carries the cancellation's
 * reason (section 2.4); the others are named by the transition of SUBSCRIPTION_TRANSITIONS that
 * makes them, which the two statuses alone tell apart.
 */
export const STATUS_CHANGE_CAUSES = [
  'CREATED',
  'STARTED',
  'TRIAL_STARTED',
  'TRIAL_ENDED',
  'PAYMENT_SUCCEEDED',
  'PAYMENT_FAILED',
  'INVOICES_SETTLED',
  'ENDS_AT_REACHED',
  'RESTORED',
  ...CANCELLATION_REASONS,
] as const;
export type StatusChangeCause = (typeof STATUS_CHANGE_CAUSES)[number];

/** `from` is null for the status a subscription is created with; null: a cancellation without its reason, which no step makes. */
export function statusChangeCause(from: SubscriptionStatus | null, state: Pick<SubscriptionState, 'status' | 'cancellation'>): StatusChangeCause | null {
  if (from === null) return 'CREATED';
  switch (state.status) {
    case 'CANCELLED':
      return state.cancellation?.reason ?? null;
    case 'EXPIRED':
      return 'ENDS_AT_REACHED';
    case 'REDEMPTION':
      return 'PAYMENT_FAILED';
    case 'UNPAID':
      return 'DUNNING_EXHAUSTED';
    case 'TRIALING':
      return from === 'CREATED' ? 'TRIAL_STARTED' : 'PAYMENT_SUCCEEDED';
    case 'PENDING':
      return from === 'TRIALING' ? 'TRIAL_ENDED' : 'STARTED';
    case 'ACTIVE':
      if (from === 'CANCELLED') return 'RESTORED';
      if (from === 'UNPAID') return 'INVOICES_SETTLED';
      return 'PAYMENT_SUCCEEDED';
    case 'CREATED':
      return 'CREATED';
  }
}
