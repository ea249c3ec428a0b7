/**
 * How Stripe's answers map to the charge path's outcomes (docs/payments-stripe.md, "What is
 * mapped to what"). Pure: the provider hands in the fields it read.
 */

/**
 * Decline codes after which the same card may succeed later (Stripe's list of declines that
 * are worth retrying): the cascade moves on and dunning retries. Every other decline is final.
 */
const SOFT_DECLINES = new Set([
  'approve_with_id',
  'issuer_not_available',
  'processing_error',
  'reenter_transaction',
  'try_again_later',
  'insufficient_funds',
  'call_issuer',
  'generic_decline',
  'card_velocity_exceeded',
  'withdrawal_count_limit_exceeded',
]);

export type StripeDecline = { outcome: 'HARD_DECLINED' | 'SOFT_DECLINED'; declineCode: string; message: string };

/**
 * An off-session charge the issuer wants authenticated: Stripe answers it with a card error of
 * this code and the PaymentIntent back in `requires_payment_method` (not `requires_action`, which
 * on-session confirmations get). It waits for the customer, like `requires_action`.
 */
export function needsAuthentication(error: { decline_code?: string | null; code?: string | null } | null | undefined): boolean {
  return error?.code === 'authentication_required' || error?.decline_code === 'authentication_required';
}

/** A card error's decline: Stripe's `decline_code` when it gives one, else its error `code`. */
export function declineOf(error: { decline_code?: string | null; code?: string | null; message?: string | null }): StripeDecline {
  const declineCode = error.decline_code || error.code || 'card_declined';
  return {
    outcome: SOFT_DECLINES.has(declineCode) ? 'SOFT_DECLINED' : 'HARD_DECLINED',
    declineCode,
    message: error.message || `Stripe declined the charge (${declineCode}).`,
  };
}

export interface PaymentIntentFacts {
  id: string;
  status: string;
  /** The fee of the captured charge, when Stripe's balance transaction was read with it. */
  fee: number | null;
  nextActionUrl: string | null;
  lastPaymentError: { decline_code?: string | null; code?: string | null; message?: string | null } | null;
}

export type PaymentIntentOutcome =
  | { outcome: 'APPROVED'; providerChargeId: string; fee: number }
  | { outcome: 'HARD_DECLINED' | 'SOFT_DECLINED'; providerChargeId: string; declineCode: string; message: string }
  | { outcome: 'REQUIRES_ACTION'; providerChargeId: string; nextActionUrl: string | null }
  | { outcome: 'PROCESSING'; providerChargeId: string }
  /** Created but not confirmed: the caller confirms it (a run died between the two). */
  | { outcome: 'UNCONFIRMED'; providerChargeId: string };

/** A PaymentIntent's status as the charge path's outcome; the PaymentIntent's id stands for the charge. */
export function outcomeOfPaymentIntent(pi: PaymentIntentFacts): PaymentIntentOutcome {
  const providerChargeId = pi.id;
  switch (pi.status) {
    case 'succeeded':
    case 'requires_capture':
      return { outcome: 'APPROVED', providerChargeId, fee: pi.fee ?? 0 };
    case 'processing':
      return { outcome: 'PROCESSING', providerChargeId };
    case 'requires_action':
      return { outcome: 'REQUIRES_ACTION', providerChargeId, nextActionUrl: pi.nextActionUrl };
    case 'requires_confirmation':
      return { outcome: 'UNCONFIRMED', providerChargeId };
    case 'canceled':
      return { outcome: 'HARD_DECLINED', providerChargeId, declineCode: 'payment_intent_canceled', message: 'The PaymentIntent was canceled.' };
    default: {
      // requires_payment_method: the last attempt failed (or the customer's authentication did),
      // or an off-session attempt needs the customer's authentication.
      if (needsAuthentication(pi.lastPaymentError)) return { outcome: 'REQUIRES_ACTION', providerChargeId, nextActionUrl: pi.nextActionUrl };
      const decline = declineOf(pi.lastPaymentError ?? { code: 'payment_intent_authentication_failure' });
      return { ...decline, providerChargeId };
    }
  }
}

export type StripeRefundOutcome =
  | { outcome: 'REFUNDED' | 'PENDING'; providerRefundId: string }
  | { outcome: 'REJECTED'; code: 'refund_failed'; message: string };

/** A Refund's status: `pending` and `requires_action` wait for Stripe's webhook or the sweeper. */
export function outcomeOfRefund(refund: { id: string; status: string | null; failure_reason?: string | null }): StripeRefundOutcome {
  switch (refund.status) {
    case 'succeeded':
      return { outcome: 'REFUNDED', providerRefundId: refund.id };
    case 'failed':
    case 'canceled':
      return { outcome: 'REJECTED', code: 'refund_failed', message: `Stripe refund ${refund.id} ${refund.status}${refund.failure_reason ? ` (${refund.failure_reason})` : ''}.` };
    default:
      return { outcome: 'PENDING', providerRefundId: refund.id };
  }
}
