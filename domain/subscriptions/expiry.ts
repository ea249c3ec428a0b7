import { requireTransition } from '../subscription-status';
import { touch, type Step, type SubscriptionState } from './state';

export function expire(state: SubscriptionState, now: number): Step {
  requireTransition('expire', state.status);
  return { state: touch(state, now, { status: 'EXPIRED', nextCycleAt: null }), events: ['SubscriptionExpired'] };
}
