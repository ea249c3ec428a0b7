import { z } from 'zod';
import { createStripeSetupIntent } from '../../../services/payment-instruments/stripe-setup-intent';
import { refuseMalformedIdempotencyKey } from '../../idempotency/with-idempotency';
import { attachPaymentInstrumentRequest } from '../../payment-instruments/attach';
import { refuseOverLimit } from '../../rate-limit/refuse-over-limit';
import { portalOperation } from '../operation';
import { callV2 } from '../v2-call';

/**
 * Saving a card with Stripe.js (docs/portal.md): the page asks for a SetupIntent, Stripe.js
 * confirms it with the card in the customer's browser, and the card it saved is attached as the
 * customer's instrument. Only for an account connected to Stripe (422 PROVIDER_NOT_CONNECTED).
 */
export const stripeCardOperations = {
  'payment-instruments/create-setup-intent': portalOperation(z.strictObject({}), async (ctx) => {
    if (ctx.v2.idempotencyKey !== undefined) refuseMalformedIdempotencyKey(ctx.v2.idempotencyKey);
    await refuseOverLimit(ctx.v2.deps.rateLimiter, ctx.session.actor.customerId, 'payment-instruments:attach', ctx.now, 'this customer');
    return { body: await createStripeSetupIntent(ctx.db, ctx.session.actor, ctx.v2.idempotencyKey, ctx.now) };
  }),
  /** attach refuses a SetupIntent made for another customer's mirror: a customer cannot take another's card. */
  'payment-instruments/attach': portalOperation(z.strictObject({ setup_intent_id: attachPaymentInstrumentRequest.shape.setup_intent_id.unwrap() }), async (ctx, input) => ({
    body: await callV2(
      ctx.v2,
      'payment-instruments.attach',
      { customer_id: ctx.session.actor.customerId, provider: 'stripe', setup_intent_id: input.setup_intent_id },
      ctx.v2.idempotencyKey,
    ),
  })),
};
