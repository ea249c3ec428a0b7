import { usageSummary as usageSummaryService } from '../../services/usage/summary';
import { operationScope } from '../auth/channel-scope';
import { authorizedProcedure, operation } from '../trpc';
import { instantOf, serializeUsageSummary, usageSummaryObject, usageSummaryRequest } from './schemas';

const parsed = (value: string | undefined) => (value === undefined ? undefined : instantOf(value));

export const usageSummary = authorizedProcedure
  .meta(
    operation('usage/summary', {
      summary: 'Summarize a customer’s usage',
      description:
        'Extension (docs/usage.md, "Reading usage"): a customer’s usage per meter in hour, day or billing-period buckets, read from roll-ups. A customer outside the key’s channels is 404.',
    }),
  )
  .input(usageSummaryRequest)
  .output(usageSummaryObject)
  .query(async ({ ctx, input }) =>
    serializeUsageSummary(
      input.customer_id,
      input.window,
      await usageSummaryService(
        ctx.db,
        operationScope(ctx.principal, input.channel_id),
        {
          customerId: input.customer_id,
          meterId: input.meter_id,
          window: input.window,
          from: parsed(input.from),
          to: parsed(input.to),
          subscriptionId: input.subscription_id,
          groupBy: input.group_by ?? false,
        },
        ctx.now().getTime(),
      ),
    ),
  );
