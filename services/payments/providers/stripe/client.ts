import Stripe from 'stripe';

/** Stripe's own address: a connection without `api_base` talks to it. */
export const STRIPE_API_BASE = 'https://api.stripe.com';

/**
 * Every request waits at most this long. A charge that outlives it is a TIMEOUT for the charge
 * path, which then asks the provider's books (docs/payments.md): well under the claim's lease.
 */
const REQUEST_TIMEOUT_MS = 20_000;

/**
 * The official SDK, pointed at `apiBase` (Stripe, or an emulator in tests). No retries inside the
 * SDK: the charge path and the sweeper retry with the same idempotency key and our own books, so
 * a retry is always one we can account for.
 */
export function stripeClient(secretKey: string, apiBase: string | null): Stripe {
  const url = new URL(apiBase ?? STRIPE_API_BASE);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return new Stripe(secretKey, {
    host: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
    maxNetworkRetries: 0,
    timeout: REQUEST_TIMEOUT_MS,
    appInfo: { name: 'billing-platform' },
  });
}
