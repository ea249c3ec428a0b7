/**
 * Where pages load Stripe.js from: Stripe's own address, or in tests localstripe's stand-in
 * (`localstripe-v3.js`, ../shared/ENVIRONMENT.md). The portal's content security policy allows
 * the origins stripeJsOrigins names and no others.
 */
export function stripeJsUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.STRIPE_JS_URL || 'https://js.stripe.com/v3/';
}

export interface StripeJsOrigins {
  script: string[];
  connect: string[];
  frame: string[];
}

const STRIPE_JS_ORIGIN = 'https://js.stripe.com';

/**
 * What a page that runs Stripe.js must let it reach. Stripe's own script calls api.stripe.com and
 * frames js.stripe.com (Elements) and hooks.stripe.com (3-D Secure), as Stripe's CSP guidance
 * lists; a stand-in (localstripe) serves all of it from its one origin.
 */
export function stripeJsOrigins(env: NodeJS.ProcessEnv = process.env): StripeJsOrigins {
  const origin = new URL(stripeJsUrl(env)).origin;
  if (origin !== STRIPE_JS_ORIGIN) return { script: [origin], connect: [origin], frame: [origin] };
  return { script: [origin], connect: ['https://api.stripe.com'], frame: [origin, 'https://hooks.stripe.com'] };
}
