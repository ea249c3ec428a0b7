import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { isAccountLevel } from '../auth/principal';
import { stringCondition, valueFilter } from '../common/filters';
import { paginate, paginationRequest, paginationResponse } from '../common/pagination';
import { requestHash } from '../idempotency/request-hash';
import { authorizedProcedure, operation } from '../trpc';
import { deliverySelect } from '../../services/webhooks/deliveries';
import { endpointVisible, visibleEndpoint } from '../../services/webhooks/endpoints';
import { DELIVERY_STATUSES, endpointId, eventId, serializeDelivery, webhookDeliveryObject } from './schemas';

export const listWebhookDeliveriesRequest = z
  .strictObject({
    endpoint_id: endpointId.optional().meta({ description: 'Deliveries to this endpoint.' }),
    event_id: eventId.optional().meta({ description: 'Deliveries of this event, to every endpoint the key can see (deleted ones included).' }),
    filters: z.strictObject({ status: valueFilter(['EQ', 'IN'], z.enum(DELIVERY_STATUSES)).optional() }).optional(),
    pagination: paginationRequest.optional(),
  })
  .refine((request) => request.endpoint_id !== undefined || request.event_id !== undefined, {
    message: 'Give endpoint_id, event_id or both.',
    params: { type: 'REQUIRED' },
  })
  .meta({ anyOf: [{ required: ['endpoint_id'] }, { required: ['event_id'] }] });

export const listWebhookDeliveriesResponse = z.object({ items: z.array(webhookDeliveryObject), pagination: paginationResponse });

export const listWebhookDeliveries = authorizedProcedure
  .meta(
    operation('webhooks/list-deliveries', {
      summary: 'List webhook deliveries with their attempts, newest first',
      description:
        'What happened to an endpoint’s or an event’s deliveries: each delivery with every attempt (status, response_status, error, duration_ms, requested_at).',
    }),
  )
  .input(listWebhookDeliveriesRequest)
  .output(listWebhookDeliveriesResponse)
  .query(async ({ ctx, input }) => {
    if (input.endpoint_id) await visibleEndpoint(ctx.db, ctx.principal, input.endpoint_id);
    else {
      const event = await ctx.db.outboxEvent.findFirst({ where: { id: input.event_id!, accountId: ctx.principal.accountId }, select: { channelId: true } });
      if (!event || !endpointVisible(ctx.principal, event.channelId)) throw ApiError.notFound('Event', input.event_id!);
    }
    const filters = input.filters ?? {};
    const where = {
      accountId: ctx.principal.accountId,
      ...(input.endpoint_id ? { endpointId: input.endpoint_id } : {}),
      ...(input.event_id ? { eventId: input.event_id } : {}),
      ...(isAccountLevel(ctx.principal) ? {} : { endpoint: { channelId: { in: ctx.principal.channelIds } } }),
      ...(filters.status ? { status: stringCondition(filters.status) } : {}),
    };
    return paginate(
      input.pagination,
      requestHash('webhooks/list-deliveries', { endpoint_id: input.endpoint_id, event_id: input.event_id, filters }),
      (beforeId, take) =>
        ctx.db.webhookDelivery.findMany({
          where: beforeId ? { ...where, id: { lt: beforeId } } : where,
          orderBy: { id: 'desc' },
          take,
          select: deliverySelect,
        }),
      serializeDelivery,
    );
  });
