import type Stripe from 'stripe';
import { ApiError } from '../../domain/errors';
import { askStripe } from './stripe-refusals';

/** Where the merchant's front end left the card at Stripe: a PaymentMethod, or the SetupIntent that saved one. */
export type StripeCardSource = { paymentMethodId: string } | { setupIntentId: string };

/** A PaymentMethod of type card, as Stripe holds it. */
export type StripeCardMethod = Stripe.PaymentMethod & { card: Stripe.PaymentMethod.Card };

export interface StripeCard {
  method: StripeCardMethod;
  /** The SetupIntent that saved it, when that is the source, and the Stripe customer it was made for (null: none named). */
  setupIntent: { id: string; customer: string | null } | null;
}

/**
 * The card a source stands for, read from Stripe without changing anything there: a SetupIntent
 * must have `succeeded` (it then names the PaymentMethod it saved), and the PaymentMethod must be
 * a card. Refusals are 422s naming the request's field.
 */
export async function stripeCardOf(stripe: Stripe, source: StripeCardSource): Promise<StripeCard> {
  let paymentMethodId: string;
  let field: string;
  let setupIntent: StripeCard['setupIntent'] = null;
  if ('setupIntentId' in source) {
    const intent = await askStripe(() => stripe.setupIntents.retrieve(source.setupIntentId), 'setup_intent_id', source.setupIntentId);
    if (intent.status !== 'succeeded' || intent.payment_method === null) {
      throw new ApiError('SETUP_INTENT_NOT_SUCCEEDED', `SetupIntent ${intent.id} is ${intent.status}: only a succeeded one has saved a card.`, {
        setup_intent_id: intent.id,
        status: intent.status,
      });
    }
    paymentMethodId = typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method.id;
    setupIntent = { id: intent.id, customer: intent.customer === null ? null : typeof intent.customer === 'string' ? intent.customer : intent.customer.id };
    field = 'setup_intent_id';
  } else {
    paymentMethodId = source.paymentMethodId;
    field = 'payment_method_id';
  }
  const method = await askStripe(() => stripe.paymentMethods.retrieve(paymentMethodId), field, paymentMethodId);
  if (method.type !== 'card' || !method.card) {
    throw new ApiError('PAYMENT_METHOD_NOT_CARD', `PaymentMethod ${method.id} is of type ${method.type}; only cards can be saved.`, {
      payment_method_id: method.id,
      type: method.type,
    });
  }
  return { method: method as StripeCardMethod, setupIntent };
}

/** The Stripe customer the PaymentMethod is attached to, if any. */
export function attachedCustomerOf(method: Stripe.PaymentMethod): string | null {
  if (method.customer === null) return null;
  return typeof method.customer === 'string' ? method.customer : method.customer.id;
}
