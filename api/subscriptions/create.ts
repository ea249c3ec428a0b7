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
    withIdempotency(ctx, 'subscriptions/create', input, async (ctx) =>
      serializeSubscription(
        await create(
          { db: ctx.db, transaction: ctx.transaction, temporal: ctx.temporal, now: ctx.now().getTime() },
          { accountId: ctx.principal.accountId },
          () => invoiceCustomer(ctx.db, ctx, input.customer_id, input.channel_id),
          input,
        ),
      ),
    ),
  );
