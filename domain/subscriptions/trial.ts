import { requireTransition } from '../subscription-status';
import { touch, type Step, type SubscriptionState } from './state';

export function startTrial(state: SubscriptionState, now: number): Step {
  requireTransition('startTrial', state.status);
  return {
    state: touch(state, now, { status: 'TRIALING', startedAt: state.startScheduledAt ?? now, startScheduledAt: null }),
    events: ['SubscriptionTrialActivated'],
  };
}
