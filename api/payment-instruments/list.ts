import { z } from 'zod';
import { stringCondition, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { channelIdField } from '../common/schemas';
import { visibleCustomer } from '../../services/customers/rules';
import { customerId } from '../customers/schemas';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { operationScope } from '../auth/channel-scope';
import { paymentInstrumentSelect, serializePaymentInstrument } from '../../services/payment-instruments/records';
import { cardBrand, paymentInstrumentObject, paymentInstrumentStatus } from './schemas';

export const listPaymentInstrumentsRequest = z.strictObject({
  customer_id: customerId,
  channel_id: channelIdField,
  filters: z
    .strictObject({
      status: valueFilter(['EQ', 'IN'], paymentInstrumentStatus).optional(),
      brand: valueFilter(['EQ'], cardBrand).optional(),
    })
    .optional(),
  pagination: paginationRequest.optional(),
});

export const listPaymentInstrumentsResponse = z.object({ items: z.array(paymentInstrumentObject), pagination: paginationResponse });

export const listPaymentInstruments = authorizedProcedure
  .meta(operation('payment-instruments/list', { summary: 'List the payment instruments of one customer, newest first' }))
  .input(listPaymentInstrumentsRequest)
  .output(listPaymentInstrumentsResponse)
  .query(async ({ ctx, input }) => {
    const customer = await visibleCustomer(ctx.db, operationScope(ctx.principal, input.channel_id), input.customer_id);
    const filters = input.filters ?? {};
    const where = {
      accountId: ctx.principal.accountId,
      customerId: customer.id,
      ...(filters.status ? { status: stringCondition(filters.status) } : {}),
      ...(filters.brand ? { brand: stringCondition(filters.brand) } : {}),
    };
    return paginate(
      input.pagination,
      requestHash('payment-instruments/list', { customer_id: customer.id, filters }),
      (beforeId, take) =>
        ctx.db.paymentInstrument.findMany({
          where: beforeId ? { ...where, id: { lt: beforeId } } : where,
          orderBy: { id: 'desc' },
          take,
          select: paymentInstrumentSelect,
        }),
      serializePaymentInstrument,
    );
  });
