import type { Client } from '@temporalio/client';
import { ApiError } from '../../domain/errors';
import { brandOfStripeCard, stripeCardFingerprint } from '../../domain/stripe-cards';
import type { Database, Prisma } from '../../prisma/client';
import { visibleCustomer } from '../customers/rules';
import type { Scope } from '../scope';
import { connectedStripe } from './connected-stripe';
import { paymentInstrumentSelect, serializePaymentInstrument } from './records';
import { expiryOfCard, saveCard } from './save-card';
import { attachedCustomerOf, stripeCardOf, type StripeCardSource } from './stripe-card-source';
import { askStripe } from './stripe-refusals';
import { stripeCustomerMirror } from './stripe-customer-mirror';

const STRIPE = 'stripe';

type Transaction = Prisma.TransactionClient;

export interface StripeCardToAttach {
  customerId: string;
  source: StripeCardSource;
  /**
   * The customer portal's callers: the SetupIntent must be one made for this customer's mirror
   * (the portal makes each one so). A merchant may attach one it made without a customer; a
   * customer must not, since such an id can be learnt from another integration's redirect.
   */
  ownSetupIntentOnly?: boolean;
}

/**
 * payment-instruments/attach with provider `stripe` (docs/payment-instruments.md, "attach"): a
 * card the customer's browser gave Stripe becomes an instrument of the customer, attached at
 * Stripe to the customer's Stripe mirror. Stripe is asked before `transaction` opens, never
 * inside it: a slow Stripe holds no row lock and no connection of the pool.
 *
 * Refusals, each before anything is written here: 422 PROVIDER_NOT_CONNECTED, 404 for a customer
 * the key cannot see, the source's refusals (stripe-card-source.ts), 422 CARD_EXPIRED, and 422
 * PAYMENT_METHOD_OF_ANOTHER_CUSTOMER for a card attached to another Stripe customer or saved by a
 * SetupIntent made for one.
 */
export async function attachStripeCard(
  deps: { db: Database; temporal: Client; now: () => Date },
  scope: Scope,
  request: StripeCardToAttach,
  transaction: <T>(work: (tx: Transaction) => Promise<T>) => Promise<T>,
) {
  const now = deps.now();
  const stripe = (await connectedStripe(deps.db, scope.accountId)).client;
  const customer = await visibleCustomer(deps.db, scope, request.customerId);
  const { method, setupIntent } = await stripeCardOf(stripe, request.source);
  const card = method.card;
  const expiresAt = expiryOfCard({ expMonth: card.exp_month, expYear: card.exp_year }, now);

  const mirror = await stripeCustomerMirror(deps.db, stripe, scope.accountId, customer, now);
  if (setupIntent && (setupIntent.customer ? setupIntent.customer !== mirror : request.ownSetupIntentOnly)) {
    // Another customer's SetupIntent (the portal makes one per customer, its id seen by that
    // customer's browser): Stripe attaches the card it saved to that customer, an emulator may
    // not, so the SetupIntent decides whose card it is.
    throw new ApiError('PAYMENT_METHOD_OF_ANOTHER_CUSTOMER', `SetupIntent ${setupIntent.id} was not made for this customer.`, {
      payment_method_id: method.id,
      setup_intent_id: setupIntent.id,
    });
  }
  const attachedTo = attachedCustomerOf(method);
  if (attachedTo === null) {
    await askStripe(() => stripe.paymentMethods.attach(method.id, { customer: mirror }), 'payment_method_id', method.id);
  } else if (attachedTo !== mirror) {
    // Another Stripe customer's card (another of ours, or one the merchant made at Stripe): it
    // cannot be charged for this customer, and Stripe would move it only after a detach.
    throw new ApiError('PAYMENT_METHOD_OF_ANOTHER_CUSTOMER', `PaymentMethod ${method.id} is attached to another Stripe customer.`, {
      payment_method_id: method.id,
    });
  }

  return transaction(async (tx) => {
    await lockPaymentMethod(tx, scope.accountId, method.id);
    const existing = await tx.paymentInstrument.findFirst({
      where: { accountId: scope.accountId, customerId: customer.id, provider: STRIPE, providerReference: method.id, status: 'ACTIVE' },
      select: paymentInstrumentSelect,
    });
    // The same card attached again (a retry without Idempotency-Key, a second click): the
    // instrument it already is, not a copy that would have to be revoked twice.
    if (existing) return serializePaymentInstrument(existing);
    return saveCard(
      deps.temporal,
      tx,
      {
        accountId: scope.accountId,
        channelId: customer.channelId,
        customerId: customer.id,
        brand: brandOfStripeCard(card.brand),
        last4: card.last4,
        expMonth: card.exp_month,
        expYear: card.exp_year,
        cardholderName: method.billing_details?.name?.trim() || null,
        // Stripe gives a card's fingerprint nearly always; without one the PaymentMethod is its own.
        fingerprint: stripeCardFingerprint(card.fingerprint ?? method.id),
        custody: { provider: STRIPE, providerReference: method.id, providerCustomerReference: mirror },
        now,
      },
      expiresAt,
    );
  });
}

/** Attaches of one PaymentMethod in the account, one after the other: the second finds the first's instrument. */
async function lockPaymentMethod(tx: Transaction, accountId: string, paymentMethodId: string) {
  await tx.$queryRaw`SELECT true AS locked FROM pg_advisory_xact_lock(hashtextextended(${`payment-instrument/stripe:${accountId}:${paymentMethodId}`}, 0))`;
}
