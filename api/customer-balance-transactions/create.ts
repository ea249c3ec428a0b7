import { z } from 'zod';
import { adjustCustomerBalance } from '../../services/customer-balance/adjust';
import { operationScope } from '../auth/channel-scope';
import { channelIdField } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { balanceAdjustmentAmount, balanceTransactionObject, currency, customerIdField } from './schemas';

export const createBalanceTransactionRequest = z.strictObject({
  channel_id: channelIdField,
  customer_id: customerIdField,
  currency,
  amount: balanceAdjustmentAmount,
  description: z.string().trim().min(1).max(500).meta({ description: 'Why: shown on the ledger.' }),
});

export const createBalanceTransaction = authorizedProcedure
  .meta(
    operation('customer-balance-transactions/create', {
      summary: 'Adjust a customer balance',
      description:
        'Extension (docs/customer-balance.md): appends a merchant ADJUSTMENT to the customer’s ledger in `currency`. Negative `amount` gives the customer credit, which their next invoices in that currency use at finalization; positive records a debit added to their next invoice. 404 for a customer outside the key’s channels.',
    }),
  )
  .input(createBalanceTransactionRequest)
  .output(balanceTransactionObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'customer-balance-transactions/create', input, (ctx) =>
      ctx.transaction((tx) => adjustCustomerBalance(ctx, tx, operationScope(ctx.principal, input.channel_id), input)),
    ),
  );
