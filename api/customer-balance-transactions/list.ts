import { z } from 'zod';
import { serializeBalanceTransaction } from '../../services/customer-balance/transaction-object';
import { listBalanceTransactions as listLedgerRows } from '../../services/customer-balance/list-transactions';
import { operationScope } from '../auth/channel-scope';
import { dateTimeCondition, dateTimeRangeFilter, stringCondition, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { channelIdField } from '../common/schemas';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { balanceTransactionObject, balanceTransactionType, currency, customerIdField } from './schemas';

export const listBalanceTransactionsRequest = z.strictObject({
  channel_id: channelIdField,
  customer_id: customerIdField,
  filters: z
    .strictObject({
      currency: valueFilter(['EQ', 'IN'], currency).optional(),
      type: valueFilter(['EQ', 'IN'], balanceTransactionType).optional(),
      created_at: dateTimeRangeFilter.optional(),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listBalanceTransactionsResponse = z.object({ items: z.array(balanceTransactionObject), pagination: paginationResponse });

export const listBalanceTransactions = authorizedProcedure
  .meta(
    operation('customer-balance-transactions/list', {
      summary: 'List a customer’s balance transactions, newest first',
      description: 'Extension (docs/customer-balance.md): the ledger of one customer, every currency unless filtered. 404 for a customer outside the key’s channels.',
    }),
  )
  .input(listBalanceTransactionsRequest)
  .output(listBalanceTransactionsResponse)
  .query(({ ctx, input }) => {
    const filters = input.filters ?? {};
    const conditions = {
      ...(filters.currency ? { currency: stringCondition(filters.currency) } : {}),
      ...(filters.type ? { type: stringCondition(filters.type) } : {}),
      ...(filters.created_at ? { createdAt: dateTimeCondition(filters.created_at) } : {}),
    };
    const scope = operationScope(ctx.principal, input.channel_id);
    return paginate(
      input.pagination,
      requestHash('customer-balance-transactions/list', { customer_id: input.customer_id, filters, channel_id: input.channel_id }),
      (beforeId, take) => listLedgerRows(ctx.db, scope, { customerId: input.customer_id, filters: conditions, beforeId, take }),
      serializeBalanceTransaction,
    );
  });
