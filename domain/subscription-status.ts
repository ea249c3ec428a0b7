/**
 * The subscription state machine (docs/subscriptions.md, "Statuses"): the eight statuses of
 * section 2.4 and every move between them, with who makes it and the event it emits. The
 * workflow's pure steps (domain/subscriptions/) and the restore operation ask this
 * table, so a rule is written once.
 */
export const SUBSCRIPTION_STATUSES = ['CREATED', 'PENDING', 'TRIALING', 'ACTIVE', 'REDEMPTION', 'UNPAID', 'CANCELLED', 'EXPIRED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Nothing moves out of these but restore (CANCELLED only); the workflow run ends there. */
export const TERMINAL_STATUSES: readonly SubscriptionStatus[] = ['CANCELLED', 'EXPIRED'];

export const CANCELLATION_REASONS = ['CANCELLATION_REQUESTED', 'DUNNING_EXHAUSTED', 'FRAUD_ALERT_RECEIVED', 'DISPUTE_RECEIVED'] as const;
export type CancellationReason = (typeof CANCELLATION_REASONS)[number];

export const CANCELLATION_MODES = ['IMMEDIATELY', 'PERIOD_END'] as const;
export type CancellationMode = (typeof CANCELLATION_MODES)[number];

interface Transition {
  from: readonly SubscriptionStatus[];
  to: readonly SubscriptionStatus[];
  by: string;
}

/** Every status but the two terminal ones: a subscription that may still bill. */
export const LIVE_SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = ['CREATED', 'PENDING', 'TRIALING', 'ACTIVE', 'REDEMPTION', 'UNPAID'];
const LIVE = LIVE_SUBSCRIPTION_STATUSES;

export const SUBSCRIPTION_TRANSITIONS = {
  /** starts_at reached with a FREE trial: SubscriptionTrialActivated. */
  startTrial: { from: ['CREATED'], to: ['TRIALING'], by: 'workflow at starts_at' },
  /** A cycle (or the PAID trial) is invoiced and its first payment is under way: SubscriptionUpdated when the status changes. */
  bill: { from: ['CREATED', 'PENDING', 'TRIALING', 'ACTIVE'], to: ['PENDING', 'ACTIVE'], by: 'workflow at next_billing_at' },
  /** The invoice being collected entered dunning: SubscriptionRedemptionStarted. */
  dunningStarted: { from: ['PENDING', 'ACTIVE'], to: ['REDEMPTION'], by: 'invoice collection (signal)' },
  /** The invoice was paid: SubscriptionActivated, SubscriptionTrialActivated (PAID trial) or SubscriptionRenewed (ACTIVE stays ACTIVE). */
  paid: { from: ['PENDING', 'ACTIVE', 'REDEMPTION'], to: ['ACTIVE', 'TRIALING'], by: 'invoice collection (result)' },
  /** The collection ended without payment: SubscriptionUnpaid. */
  unpaid: { from: ['PENDING', 'ACTIVE', 'REDEMPTION'], to: ['UNPAID'], by: 'invoice collection (result)' },
  /** Its last owed invoice was paid or voided by hand (invoices/pay, invoices/void): SubscriptionActivated. */
  reactivate: { from: ['UNPAID'], to: ['ACTIVE'], by: 'invoices/pay, invoices/void' },
  /** subscriptions/update with end_trial. */
  endTrial: { from: ['TRIALING'], to: ['PENDING'], by: 'subscriptions/update' },
  /** subscriptions/update of anything else: the status stays. */
  update: { from: ['CREATED', 'PENDING', 'TRIALING', 'ACTIVE', 'REDEMPTION'], to: ['CREATED', 'PENDING', 'TRIALING', 'ACTIVE', 'REDEMPTION'], by: 'subscriptions/update' },
  /** subscriptions/cancel IMMEDIATELY, dunning exhaustion, or a PERIOD_END cancellation falling due: SubscriptionCancelled. */
  cancel: { from: LIVE, to: ['CANCELLED'], by: 'subscriptions/cancel, dunning exhaustion, cancel_at' },
  /** subscriptions/cancel PERIOD_END: the status stays, cancellation_info is set; SubscriptionScheduledForCancellation. */
  scheduleCancellation: { from: ['PENDING', 'TRIALING', 'ACTIVE', 'REDEMPTION'], to: ['PENDING', 'TRIALING', 'ACTIVE', 'REDEMPTION'], by: 'subscriptions/cancel' },
  /** subscriptions/delete-cancellation: SubscriptionUpdated. */
  deleteCancellation: { from: ['PENDING', 'TRIALING', 'ACTIVE', 'REDEMPTION'], to: ['PENDING', 'TRIALING', 'ACTIVE', 'REDEMPTION'], by: 'subscriptions/delete-cancellation' },
  /** ends_at reached: SubscriptionExpired. */
  expire: { from: LIVE, to: ['EXPIRED'], by: 'workflow at ends_at' },
  /** v1 /subscription/restore: SubscriptionActivated. */
  restore: { from: ['CANCELLED'], to: ['ACTIVE'], by: 'v1 subscription/restore' },
} as const satisfies Record<string, Transition>;

export type SubscriptionTransition = keyof typeof SUBSCRIPTION_TRANSITIONS;

export function isTerminal(status: string): boolean {
  return (TERMINAL_STATUSES as readonly string[]).includes(status);
}

export function canApply(transition: SubscriptionTransition, from: string): boolean {
  return (SUBSCRIPTION_TRANSITIONS[transition].from as readonly string[]).includes(from);
}

/**
 * A change the subscription refuses: an operation-specific 422. Plain data, so the workflow
 * turns it into an ApplicationFailure of the same type and the API back into an ApiError.
 */
export class SubscriptionRefused extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly context: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'SubscriptionRefused';
  }
}

/** 422 INCOMPATIBLE_STATUS with `context: {status, allowed_statuses}` unless `transition` applies. */
export function requireTransition(transition: SubscriptionTransition, from: string): void {
  if (canApply(transition, from)) return;
  const rule = SUBSCRIPTION_TRANSITIONS[transition];
  throw new SubscriptionRefused('INCOMPATIBLE_STATUS', `The subscription is ${from}; ${rule.by} needs it to be ${rule.from.join(' or ')}.`, {
    status: from,
    allowed_statuses: [...rule.from],
  });
}
