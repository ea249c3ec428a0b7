import Stripe from 'stripe';
import { connectStripe } from '../../services/payments/providers/stripe/connection';
import { startLocalstripe } from '../../scripts/stripe/localstripe';
import type { StripeEmulator } from '../../scripts/stripe/emulator-process';
import type { Platform } from '../support/platform';

export const TEST_SECRET_KEY = 'sk_test_platformkey0001';
export const TEST_WEBHOOK_SECRET = 'whsec_platformsecret0001';

/** The account connected to a localstripe of the test file's own; stopped with the file. */
export async function connectToLocalstripe(platform: Platform): Promise<{ emulator: StripeEmulator; stripe: Stripe }> {
  const emulator = await startLocalstripe();
  await connectStripe(platform.db, platform.accountId, { secretKey: TEST_SECRET_KEY, webhookSecret: TEST_WEBHOOK_SECRET, apiBase: emulator.url, connectedBy: 'operator' }, new Date());
  const stripe = new Stripe(TEST_SECRET_KEY, { host: emulator.host, port: emulator.port, protocol: emulator.protocol, maxNetworkRetries: 0 });
  return { emulator, stripe };
}

/**
 * A card as the merchant's front end saves it at Stripe (a PaymentMethod made with Stripe.js),
 * then handed to payment-instruments/attach, which mirrors the customer at Stripe and attaches it.
 */
export async function stripeCard(platform: Platform, stripe: Stripe, customerId: string, number: string): Promise<string> {
  const year = new Date().getUTCFullYear() + 3;
  const method = await stripe.paymentMethods.create({ type: 'card', card: { number, exp_month: 12, exp_year: year, cvc: '123' } } as Stripe.PaymentMethodCreateParams);
  const attached = await platform.call('/v2/payment-instruments/attach', { customer_id: customerId, provider: 'stripe', payment_method_id: method.id });
  if (attached.status !== 200) throw new Error(`payment-instruments/attach: ${attached.status} ${JSON.stringify(attached.body)}`);
  return attached.body.id;
}

/** Every PaymentIntent localstripe holds for one of our payments (its metadata names it). */
export async function intentsOf(stripe: Stripe, paymentId: string): Promise<Stripe.PaymentIntent[]> {
  const found: Stripe.PaymentIntent[] = [];
  for await (const intent of stripe.paymentIntents.list({ limit: 100 })) if (intent.metadata?.bp_payment_id === paymentId) found.push(intent);
  return found;
}
