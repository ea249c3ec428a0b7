import { z } from 'zod';
import { channelIdField, dateTime } from '../common/schemas';
import { subscriptionId, updateSubscriptionRequest } from '../subscriptions/schemas';
import { invoiceLineItemObject, invoiceObject } from './schemas';

export const invoicePreviewRequest = z
  .strictObject({
    subscription_id: subscriptionId,
    channel_id: channelIdField,
    subscription_update: updateSubscriptionRequest
      .omit({ id: true, channel_id: true })
      .optional()
      .meta({ description: 'A proposed subscriptions/update body: previews the invoice it would issue now and the next cycle after it. Refused as subscriptions/update would refuse it.' }),
    proration_date: dateTime.optional().meta({ description: 'With subscription_update: when the update is taken to happen, inside the current period, before the next billing. Default now.' }),
  })
  .superRefine((request, ctx) => {
    if (request.proration_date !== undefined && request.subscription_update === undefined) {
      ctx.addIssue({ code: 'custom', path: ['proration_date'], message: 'proration_date needs subscription_update.', params: { type: 'INVALID' } });
    }
  })
  .meta({ dependentRequired: { proration_date: ['subscription_update'] } });

export const invoicePreviewObject = invoiceObject
  .omit({ id: true, status: true, pdf_url: true, hosted_invoice_url: true, finalized_at: true, paid_at: true, voided_at: true, created_at: true, updated_at: true, line_items: true })
  .extend({
    line_items: z.array(invoiceLineItemObject.omit({ id: true })),
    issued_at: dateTime.meta({ description: 'When the subscription issues it: the next billing, or the update’s time.' }),
    period: z.object({ start_at: dateTime, end_at: dateTime.nullable() }).meta({ description: 'The period it bills; end_at null for an open-ended PAID trial.' }),
    starting_balance: z.number().int().meta({ description: 'The customer’s balance in the currency before this invoice; negative is a credit.' }),
    ending_balance: z.number().int().meta({ description: 'The customer’s balance after this invoice’s finalization takes its part; amount_details.balance_applied and balance_credited say what it took, as finalization sets them.' }),
  })
  .meta({ id: 'InvoicePreview' });

export const invoicePreviewResponse = z.object({
  subscription_id: z.string(),
  update_invoice: invoicePreviewObject
    .nullable()
    .optional()
    .meta({ description: 'With subscription_update only: the invoice the update issues at once (a positive proration while ACTIVE), null when it issues none.' }),
  next_invoice: invoicePreviewObject.nullable().meta({ description: 'The next cycle’s invoice (after the proposed update), null when no cycle will bill.' }),
});
