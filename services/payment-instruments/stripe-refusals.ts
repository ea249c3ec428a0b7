import Stripe from 'stripe';
import { ApiError } from '../../domain/errors';

/**
 * One call to Stripe, its refusals as ours: an id Stripe does not know (in this Stripe account)
 * is 422 PROVIDER_REFERENCE_NOT_FOUND, a key Stripe no longer accepts 422
 * PROVIDER_CREDENTIALS_REJECTED (the account must connect again), a card Stripe declines
 * 422 CARD_DECLINED. Stripe unreachable or failing is 503 PROVIDER_UNAVAILABLE (stripeUnavailable).
 * Anything else is thrown as it is: a 500, nothing saved, and a retry runs again.
 */
export async function askStripe<T>(call: () => Promise<T>, field: string, id: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeError)) throw error;
    if (stripeUnavailable(error)) {
      const unavailable = new ApiError('PROVIDER_UNAVAILABLE', 'Stripe could not be reached or failed to answer; nothing was saved. Retry later with the same Idempotency-Key.', {
        provider: 'stripe',
        retryable: true,
      });
      // For the log only (api/http/server.ts): Stripe's own words never reach the answer.
      unavailable.cause = error;
      throw unavailable;
    }
    if (error.statusCode === 404) {
      throw new ApiError('PROVIDER_REFERENCE_NOT_FOUND', `Stripe knows no ${id} in the connected Stripe account.`, { provider: 'stripe', field, id });
    }
    if (error instanceof Stripe.errors.StripeAuthenticationError || error instanceof Stripe.errors.StripePermissionError) {
      throw new ApiError('PROVIDER_CREDENTIALS_REJECTED', 'Stripe refused the connected secret key (revoked, or lacking permission): connect Stripe again.', {
        provider: 'stripe',
        reason: 'rejected',
        field: 'secret_key',
      });
    }
    // 402: Stripe checked the card with its issuer when attaching it, and the issuer said no.
    if (error instanceof Stripe.errors.StripeCardError || error.statusCode === 402) {
      const declineCode = error.decline_code || error.code || 'card_declined';
      throw new ApiError('CARD_DECLINED', `Stripe declined the card (${declineCode}).`, { provider: 'stripe', decline_code: declineCode });
    }
    throw error;
  }
}

/**
 * Stripe said nothing about the request itself, so the same request may well succeed later: no
 * connection or no answer in time (the SDK's StripeConnectionError), its rate limit (429), its
 * own failure (5xx), or an answer that is no Stripe JSON at all (no status: an egress proxy's
 * error page in front of an unreachable Stripe).
 */
function stripeUnavailable(error: Stripe.errors.StripeError): boolean {
  if (error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeRateLimitError) return true;
  return error instanceof Stripe.errors.StripeAPIError && (error.statusCode === undefined || error.statusCode >= 500);
}
