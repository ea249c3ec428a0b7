import { createSubscription as create } from '../../services/subscriptions/create';
import { serializeSubscription } from '../../services/subscriptions/subscription-object';
import { withIdempotency } from '../idempotency/with-idempotency';
import { invoiceCustomer } from '../invoices/create';
import { authorizedProcedure, operation } from '../trpc';
import { createSubscriptionRequest, subscriptionObject } from './schemas';

export const createSubscription = authorizedProcedure
  .meta(
    operation('subscriptions/create', {
      summary: 'Create a subscription',
      description:
        'CREATED until starts_at, else TRIALING (FREE trial) or PENDING (first invoice under way, charged or sent by collection_method). In the customer’s channel. Emits SubscriptionCreated (+ SubscriptionTrialActivated).',
    }),
  )
  .input(createSubscriptionRequest)
  .output(subscriptionObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'subscriptions/create', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const customer = await invoiceCustomer(tx, ctx, input.customer_id, input.channel_id);
        const row = await create({ db: tx, temporal: ctx.temporal, now: ctx.now().getTime() }, { accountId: ctx.principal.accountId }, customer, input);
        return serializeSubscription(row);
      }),
    ),
  );
