import { z } from 'zod';
import { ApiError } from '../../../domain/errors';
import { customerMayUndoCancellation, forbiddenLineChange } from '../../../domain/portal/rules';
import { portalCancelMode, type PortalSettings } from '../../../domain/portal/settings';
import { ownedSubscription } from '../../../services/portal/ownership';
import { readPortalSettings } from '../../../services/portal/settings';
import { MAX_QUANTITY } from '../../invoices/schemas';
import { catalogueId } from '../../products/schemas';
import { subscriptionId } from '../../subscriptions/schemas';
import { listed, pagination, portalOperation, type PortalContext } from '../operation';
import { callV2 } from '../v2-call';
import { portalListRequest } from './list-request';

const lineChange = z
  .strictObject({
    line_item_id: z.string().min(1).max(64),
    quantity: z.number().int().min(1).max(MAX_QUANTITY).optional(),
    product_price_id: catalogueId.optional(),
  })
  .refine((change) => change.quantity !== undefined || change.product_price_id !== undefined, {
    message: 'Give quantity, product_price_id, or both.',
    params: { type: 'REQUIRED' },
  });

function notAllowed(setting: keyof PortalSettings, message: string): ApiError {
  return new ApiError('PERMISSION_DENIED', message, { portal_setting: setting });
}

/**
 * The line change as subscriptions/update takes it, once the account's settings allow it; a line
 * of another subscription is 404, as subscriptions/update would answer it.
 */
async function allowedUpdate(ctx: PortalContext, id: string, change: z.output<typeof lineChange>) {
  const subscription = await ownedSubscription(ctx.db, ctx.session.actor, id);
  const line = subscription.lineItems.find((item) => item.id === change.line_item_id);
  if (!line) throw new ApiError('LINE_ITEM_NOT_FOUND', `Subscription ${id} has no line item ${change.line_item_id}.`, { line_item_id: change.line_item_id });
  const settings = await readPortalSettings(ctx.db, ctx.session.actor.accountId);
  const forbidden = forbiddenLineChange(settings, line.productPriceId, { quantity: change.quantity, productPriceId: change.product_price_id });
  if (forbidden) throw notAllowed(forbidden, forbidden === 'quantity_changes' ? 'This account does not let customers change quantities.' : 'This account does not let customers switch this line to that price.');
  return {
    line_items: {
      update: [{ id: line.id, ...(change.quantity !== undefined ? { quantity: change.quantity } : {}), ...(change.product_price_id !== undefined ? { product_price_id: change.product_price_id } : {}) }],
    },
  };
}

export const subscriptionOperations = {
  'subscriptions/list': portalOperation(portalListRequest, async (ctx, input) => ({
    body: listed(
      await callV2<{ items: unknown[]; pagination: { next_page_token: string } }>(ctx.v2, 'subscriptions.list', {
        filters: { customer_id: { operator: 'EQ', value: ctx.session.actor.customerId } },
        pagination: pagination(input),
      }),
    ),
  })),
  /** The next invoice, and with `change` the proration invoice it would issue now: shown before the customer confirms. */
  'subscriptions/preview': portalOperation(z.strictObject({ id: subscriptionId, change: lineChange.optional() }), async (ctx, input) => {
    const update = input.change ? await allowedUpdate(ctx, input.id, input.change) : (await ownedSubscription(ctx.db, ctx.session.actor, input.id), undefined);
    return { body: await callV2(ctx.v2, 'invoices.preview', { subscription_id: input.id, ...(update ? { subscription_update: update } : {}) }) };
  }),
  'subscriptions/change': portalOperation(z.strictObject({ id: subscriptionId }).extend(lineChange.shape), async (ctx, input) => {
    const { id, ...change } = input;
    const update = await allowedUpdate(ctx, id, change);
    return { body: await callV2(ctx.v2, 'subscriptions.update', { id, ...update }, ctx.v2.idempotencyKey) };
  }),
  'subscriptions/cancel': portalOperation(
    z.strictObject({ id: subscriptionId, comment: z.string().trim().min(1).regex(/\S/).max(500).optional() }),
    async (ctx, input) => {
      await ownedSubscription(ctx.db, ctx.session.actor, input.id);
      const mode = portalCancelMode(await readPortalSettings(ctx.db, ctx.session.actor.accountId));
      if (!mode) throw notAllowed('cancellation', 'This account does not let customers cancel in the portal; contact the merchant.');
      return {
        body: await callV2(
          ctx.v2,
          'subscriptions.cancel',
          { id: input.id, mode, reason: 'CANCELLATION_REQUESTED', ...(input.comment ? { comment: input.comment } : {}) },
          ctx.v2.idempotencyKey,
        ),
      };
    },
  ),
  'subscriptions/undo-cancel': portalOperation(z.strictObject({ id: subscriptionId }), async (ctx, input) => {
    const subscription = await ownedSubscription(ctx.db, ctx.session.actor, input.id);
    const cancellation = subscription.cancellationInfo as { requested_by?: string } | null;
    if (cancellation && !customerMayUndoCancellation(cancellation)) {
      throw new ApiError('PERMISSION_DENIED', 'The merchant scheduled this cancellation; only the merchant can take it back.', { requested_by: 'MERCHANT' });
    }
    return { body: await callV2(ctx.v2, 'subscriptions.delete-cancellation', { id: input.id }, ctx.v2.idempotencyKey) };
  }),
};
