import { createPortalLink } from '../../services/portal/links';
import { operationScope } from '../auth/channel-scope';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { createCustomerPortalSessionRequest, customerPortalSessionObject } from './schemas';

export const createCustomerPortalSession = authorizedProcedure
  .meta(
    operation('customer-portal-sessions/create', {
      summary: 'Open the customer portal for a customer',
      description:
        'Extension (docs/portal.md): a one-time link, valid for 10 minutes, that starts a customer portal session for this customer alone: invoices, payment methods, subscriptions and billing details, as the account’s portal settings allow. A customer outside the key’s channels is 404; an INACTIVE one is 422 INCOMPATIBLE_STATUS.',
    }),
  )
  .input(createCustomerPortalSessionRequest)
  .output(customerPortalSessionObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'customer-portal-sessions/create', input, (ctx) =>
      ctx.transaction((tx) =>
        createPortalLink(
          tx,
          operationScope(ctx.principal, input.channel_id),
          { customerId: input.customer_id, returnUrl: input.return_url, locale: input.locale, createdBy: ctx.principal.apiKeyId },
          ctx.now(),
        ),
      ),
    ),
  );
