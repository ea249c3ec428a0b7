/**
 * Where pages load Stripe.js from: Stripe's own address, or in tests localstripe's stand-in
 * (`localstripe-v3.js`, ../shared/ENVIRONMENT.md). The portal's content security policy allows
 * this origin and no other.
 */
export function stripeJsUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.STRIPE_JS_URL || 'https://js.stripe.com/v3/';
}
