/**
 * What an account's Stripe credentials must look like before Stripe is asked about them
 * (docs/payments-stripe.md, "Connecting"): a secret or restricted key, and an endpoint's
 * signing secret. A publishable key (`pk_…`) is refused as the secret key: it cannot charge.
 */
const SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/;
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=]{8,}$/;
const PUBLISHABLE_KEY = /^pk_(test|live)_[A-Za-z0-9]{8,}$/;

export function isStripeSecretKey(value: string): boolean {
  return SECRET_KEY.test(value);
}

export function isStripeWebhookSecret(value: string): boolean {
  return WEBHOOK_SECRET.test(value);
}

/** The key pages give Stripe.js: public by design, so it is stored and shown in full. */
export function isStripePublishableKey(value: string): boolean {
  return PUBLISHABLE_KEY.test(value);
}

/** A live key charges real cards; a test key only Stripe's test cards. */
export function isLiveKey(secretKey: string): boolean {
  return /^(sk|rk)_live_/.test(secretKey);
}

/**
 * Stripe.js with a test publishable key saves cards only a test secret key can charge, and the
 * reverse: keys of two modes would take cards the account then cannot charge.
 */
export function publishableKeyMatchesMode(publishableKey: string, secretKey: string): boolean {
  return publishableKey.startsWith('pk_live_') === isLiveKey(secretKey);
}

/** The only part of a secret shown again after it was saved. */
export function lastFour(secret: string): string {
  return secret.slice(-4);
}

/** Bound into each sealed value, so a sealed key moved to another account or column does not open. */
export function stripeSecretPurpose(accountId: string, which: 'secret-key' | 'webhook-secret'): string {
  return `stripe-${which}/${accountId}`;
}
