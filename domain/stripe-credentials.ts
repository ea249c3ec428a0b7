/**
 * What an account's Stripe credentials must look like before Stripe is asked about them
 * (docs/payments-stripe.md, "Connecting"): a secret or restricted key, and an endpoint's
 * signing secret. A publishable key (`pk_…`) is refused: it cannot charge.
 */
const SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=]{8,}$/;

export function isStripeSecretKey(value: string): boolean {
  return SECRET_KEY.test(value);
}

export function isStripeWebhookSecret(value: string): boolean {
  return WEBHOOK_SECRET.test(value);
}

/** A live key charges real cards; a test key only Stripe's test cards. */
export function isLiveKey(secretKey: string): boolean {
  return /^(sk|rk)_live_/.test(secretKey);
}

/** The only part of a secret shown again after it was saved. */
export function lastFour(secret: string): string {
  return secret.slice(-4);
}

/** Bound into each sealed value, so a sealed key moved to another account or column does not open. */
export function stripeSecretPurpose(accountId: string, which: 'secret-key' | 'webhook-secret'): string {
  return `stripe-${which}/${accountId}`;
}
