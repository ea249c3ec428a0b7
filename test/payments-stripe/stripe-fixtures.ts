import Stripe from 'stripe';
import { newId } from '../../domain/ids';
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
 * A card as the merchant's front end saves it at Stripe (a PaymentMethod attached to the
 * customer's Stripe mirror), held as our instrument: what payment-instruments/attach records.
 */
export async function stripeCard(platform: Platform, stripe: Stripe, customerId: string, number: string): Promise<string> {
  const year = new Date().getUTCFullYear() + 3;
  const mirror = await stripe.customers.create({ metadata: { bp_customer_id: customerId } });
  const method = await stripe.paymentMethods.create({ type: 'card', card: { number, exp_month: 12, exp_year: year, cvc: '123' } } as Stripe.PaymentMethodCreateParams);
  await stripe.paymentMethods.attach(method.id, { customer: mirror.id });
  const customer = await platform.db.customer.findUniqueOrThrow({ where: { id: customerId } });
  const now = new Date();
  const row = await platform.db.paymentInstrument.create({
    data: {
      id: newId('paymentInstrument'),
      accountId: customer.accountId,
      channelId: customer.channelId,
      customerId,
      type: 'CARD',
      brand: 'VISA',
      last4: number.slice(-4),
      expMonth: 12,
      expYear: year,
      fingerprint: `stripe:${method.card?.fingerprint ?? method.id}`,
      sandboxScenario: null,
      provider: 'stripe',
      providerReference: method.id,
      providerCustomerReference: mirror.id,
      status: 'ACTIVE',
      createdAt: now,
      updatedAt: now,
    },
  });
  return row.id;
}

/** Every PaymentIntent localstripe holds for one of our payments (its metadata names it). */
export async function intentsOf(stripe: Stripe, paymentId: string): Promise<Stripe.PaymentIntent[]> {
  const found: Stripe.PaymentIntent[] = [];
  for await (const intent of stripe.paymentIntents.list({ limit: 100 })) if (intent.metadata?.bp_payment_id === paymentId) found.push(intent);
  return found;
}
