import { formatDateTime } from '../datetime';
import { isTerminal, requireTransition, SubscriptionRefused, type CancellationMode, type CancellationReason } from '../subscription-status';
import { currentPeriodEnd } from './schedule';
import { touch, type Cancellation, type Step, type SubscriptionState } from './state';

export function cancelNow(state: SubscriptionState, now: number, reason: CancellationReason, comment: string | null, requestedAt = now): Step {
  requireTransition('cancel', state.status);
  return {
    state: touch(state, now, {
      status: 'CANCELLED',
      nextCycleAt: null,
      cancellation: { mode: 'IMMEDIATELY', cancelAt: now, requestedAt, reason, comment },
    }),
    events: ['SubscriptionCancelled'],
  };
}

/** A PERIOD_END cancellation falling due keeps what the request said, with mode and time as it happened. */
export function cancelScheduled(state: SubscriptionState, now: number): Step {
  const scheduled = state.cancellation!;
  const step = cancelNow(state, now, scheduled.reason, scheduled.comment, scheduled.requestedAt);
  return { state: { ...step.state, cancellation: { ...step.state.cancellation!, ...requester(scheduled.requestedBy), mode: 'PERIOD_END', cancelAt: scheduled.cancelAt } }, events: step.events };
}

export interface CancelRequest {
  mode: CancellationMode;
  reason: CancellationReason;
  comment: string | null;
  /** The customer portal's requests say so: only a customer's own cancellation is theirs to undo. */
  requestedBy?: 'CUSTOMER';
}

/** Kept only when set, so a merchant's cancellation stores and replays exactly as before. */
function requester(requestedBy: 'CUSTOMER' | undefined): Pick<Cancellation, 'requestedBy'> {
  return requestedBy ? { requestedBy } : {};
}

export function validateCancel(state: SubscriptionState, request: CancelRequest): void {
  if (request.mode === 'IMMEDIATELY') {
    requireTransition('cancel', state.status);
    return;
  }
  requireTransition('scheduleCancellation', state.status);
  if (state.cancellation) {
    throw new SubscriptionRefused('CANCELLATION_ALREADY_SCHEDULED', `The subscription is already scheduled to cancel at ${formatDateTime(new Date(state.cancellation.cancelAt))}.`, {
      cancel_at: formatDateTime(new Date(state.cancellation.cancelAt)),
    });
  }
  if (currentPeriodEnd(state) === null) {
    throw new SubscriptionRefused('NO_PERIOD_END', 'The subscription is in an open-ended trial: it has no period end to cancel at; cancel IMMEDIATELY or end the trial first.');
  }
}

export function cancel(state: SubscriptionState, request: CancelRequest, now: number): Step {
  validateCancel(state, request);
  if (request.mode === 'IMMEDIATELY') {
    const step = cancelNow(state, now, request.reason, request.comment);
    return { state: { ...step.state, cancellation: { ...step.state.cancellation!, ...requester(request.requestedBy) } }, events: step.events };
  }
  const cancellation: Cancellation = {
    mode: 'PERIOD_END',
    cancelAt: currentPeriodEnd(state)!,
    requestedAt: now,
    reason: request.reason,
    comment: request.comment,
    ...requester(request.requestedBy),
  };
  return { state: touch(state, now, { cancellation }), events: ['SubscriptionScheduledForCancellation'] };
}

export function validateDeleteCancellation(state: SubscriptionState): void {
  if (state.cancellation?.mode !== 'PERIOD_END' || isTerminal(state.status)) {
    throw new SubscriptionRefused('CANCELLATION_NOT_SCHEDULED', 'Only a scheduled PERIOD_END cancellation can be removed; this subscription has none.', {
      status: state.status,
    });
  }
}

export function deleteCancellation(state: SubscriptionState, now: number): Step {
  validateDeleteCancellation(state);
  return { state: touch(state, now, { cancellation: null }), events: ['SubscriptionUpdated'] };
}
