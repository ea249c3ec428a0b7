import { createHash, randomUUID } from 'node:crypto';
import { ApiError } from '../../domain/errors';
import type { Database } from '../../prisma/client';
import { findCustomer } from '../customers/repository';
import { connectedStripe } from './connected-stripe';
import { askStripe } from './stripe-refusals';
import { stripeCustomerMirror } from './stripe-customer-mirror';

export interface StripeSetupIntent {
  client_secret: string;
  setup_intent_id: string;
}

/**
 * A SetupIntent for the customer's browser to save a card with Stripe.js (docs/portal.md), so no
 * card number reaches the platform: off-session (renewals and dunning charge it later), cards
 * only, made for the customer's Stripe mirror (created here on first use), which attach then
 * insists on. Stripe's Idempotency-Key is one per request: the caller's `Idempotency-Key` (its
 * retry then gets the same SetupIntent from Stripe), else one of its own.
 *
 * Refusals: 422 PROVIDER_NOT_CONNECTED (the account charges through the sandbox), Stripe's as
 * attach's (503 PROVIDER_UNAVAILABLE, 422 PROVIDER_CREDENTIALS_REJECTED). Nothing is stored but
 * the mirror.
 */
export async function createStripeSetupIntent(
  db: Database,
  target: { accountId: string; customerId: string },
  requestKey: string | undefined,
  now: Date,
): Promise<StripeSetupIntent> {
  const stripe = (await connectedStripe(db, target.accountId)).client;
  const customer = await findCustomer(db, target.accountId, target.customerId);
  if (!customer) throw ApiError.notFound('Customer', target.customerId);
  const mirror = await stripeCustomerMirror(db, stripe, target.accountId, customer, now);
  const intent = await askStripe(
    () =>
      stripe.setupIntents.create(
        {
          customer: mirror,
          usage: 'off_session',
          // Cards only: instruments are cards. The SDK's types name only the newer
          // `allowed_payment_method_types`, which localstripe refuses; Stripe's API takes both.
          ...{ payment_method_types: ['card'] },
          metadata: { bp_customer_id: customer.id, bp_account_id: target.accountId },
        },
        { idempotencyKey: stripeKeyOf(customer.id, requestKey) },
      ),
    'customer_id',
    customer.id,
  );
  // Stripe always gives a new SetupIntent its secret; without one the browser could not confirm it.
  if (!intent.client_secret) throw new Error(`Stripe answered SetupIntent ${intent.id} without a client_secret.`);
  return { client_secret: intent.client_secret, setup_intent_id: intent.id };
}

/** Scoped to the customer as the caller's keys are, hashed to stay within Stripe's 255 characters. */
function stripeKeyOf(customerId: string, requestKey: string | undefined): string {
  const request = requestKey === undefined ? randomUUID() : createHash('sha256').update(requestKey).digest('base64url');
  return `bp-setup-intent/${customerId}/${request}`;
}
