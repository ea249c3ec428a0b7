import { z } from 'zod';
import { attachStripeCard } from '../../services/payment-instruments/attach-stripe-card';
import { operationScope } from '../auth/channel-scope';
import { channelIdField } from '../common/schemas';
import { customerId } from '../customers/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { paymentInstrumentObject } from './schemas';

/** A Stripe object id: its prefix, then letters, digits and underscores (`pm_card_visa` is a test id). */
const stripeId = (prefix: string, what: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}_[A-Za-z0-9_]{1,250}$`), { message: `Expected a Stripe ${what} id \`${prefix}_…\`.` })
    .meta({ maxLength: prefix.length + 251 });

export const attachPaymentInstrumentRequest = z
  .strictObject({
    customer_id: customerId,
    channel_id: channelIdField,
    provider: z.literal('stripe').meta({ description: 'The provider holding the card; the account must be connected to it.' }),
    payment_method_id: stripeId('pm', 'PaymentMethod')
      .optional()
      .meta({ description: 'A card PaymentMethod the front end created with Stripe.js; attached to the customer’s Stripe customer when not yet attached.' }),
    setup_intent_id: stripeId('seti', 'SetupIntent')
      .optional()
      .meta({ description: 'A succeeded SetupIntent: the card it saved is attached.' }),
  })
  .superRefine((body, ctx) => {
    if ((body.payment_method_id === undefined) === (body.setup_intent_id === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['payment_method_id'],
        message: 'Give either payment_method_id or setup_intent_id.',
        params: { type: body.payment_method_id === undefined ? 'REQUIRED' : 'INVALID' },
      });
    }
  })
  .meta({ oneOf: [{ required: ['payment_method_id'] }, { required: ['setup_intent_id'] }] });

export const attachPaymentInstrument = authorizedProcedure
  .meta(
    operation('payment-instruments/attach', {
      summary: 'Save a card a provider holds for a customer (Stripe)',
      description:
        'From a Stripe PaymentMethod or a succeeded SetupIntent the front end obtained with Stripe.js: no card number reaches this server. Attaches the card to the customer’s Stripe customer (created once), keeps brand, last four, expiry and Stripe’s fingerprint, and expires the instrument at the end of its expiry month. The same card attached again answers the ACTIVE instrument it already is. Emits PaymentInstrumentCreated. docs/payments-stripe.md.',
      asksProvider: true,
    }),
  )
  .input(attachPaymentInstrumentRequest)
  .output(paymentInstrumentObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'payment-instruments/attach', input, (ctx) =>
      attachStripeCard(
        ctx,
        operationScope(ctx.principal, input.channel_id),
        {
          customerId: input.customer_id,
          source: input.setup_intent_id !== undefined ? { setupIntentId: input.setup_intent_id } : { paymentMethodId: input.payment_method_id! },
          ownSetupIntentOnly: ctx.principal.customer !== undefined,
        },
        ctx.transaction,
      ),
    ),
  );
