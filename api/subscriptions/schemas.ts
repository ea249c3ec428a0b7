import { PRORATION_CREDIT_DESTINATIONS } from '../../domain/balance-transactions';
import { z } from 'zod';
import { metadataObject } from '../common/metadata';
import { CANCELLATION_MODES, CANCELLATION_REASONS, SUBSCRIPTION_STATUSES } from '../../domain/subscription-status';
import { COLLECTION_METHODS } from '../../domain/collection-methods';
import { MAX_SUBSCRIPTION_LINE_ITEMS } from '../../domain/subscriptions/lines';
import { isRetrySchedule, MAX_RETRIES, RETRY_SCHEDULE_RULE } from '../../domain/dunning-schedule';
import { TAX_MODES } from '../../domain/invoice-amounts';
import { EXHAUSTION_ACTIONS } from '../../domain/subscriptions/state';
import type { SubscriptionObject } from '../../services/subscriptions/subscription-object';
import type { StatusChangeObject } from '../../services/subscriptions/status-history';
import { STATUS_CHANGE_CAUSES } from '../../domain/subscriptions/status-change-cause';
import { channelIdField, dateTime, prefixedId } from '../common/schemas';
import { calculationType } from '../coupons/schemas';
import { discountsRequest, lineTaxRequest, metadata, MAX_QUANTITY } from '../invoices/schemas';
import { BILLING_PERIOD_UNITS, billingPeriodConfig, billingType, MAX_PRICE_AMOUNT } from '../product-prices/schemas';
import { catalogueId } from '../products/schemas';


/** A day: invoices wait no longer than that for late usage; later events are billed as adjustments. */
const MAX_USAGE_GRACE_MINUTES = 1440;
export const subscriptionId = prefixedId('subscription');
export const subscriptionStatus = z.enum(SUBSCRIPTION_STATUSES);
export const cancellationReason = z.enum(CANCELLATION_REASONS);
/** The longest payment term of an invoice-billed subscription (docs/subscriptions.md, "Collection"). */
export const MAX_DAYS_UNTIL_DUE = 365;

/* ---------- requests ---------- */

export const subscriptionLineRequest = z.strictObject({
  product_price_id: catalogueId,
  quantity: z.number().int().min(1).max(MAX_QUANTITY),
  tax: lineTaxRequest.optional().meta({ description: 'Carried to every invoice line this item bills, as on invoice lines; left out: untaxed.' }),
});

export const settingsRequest = z
  .strictObject({
    dunning_retry_schedule_days: z
      .array(z.number())
      .min(1)
      .refine(isRetrySchedule, { message: RETRY_SCHEDULE_RULE, params: { type: 'INVALID' } })
      .meta({ maxItems: MAX_RETRIES, items: { type: 'number', exclusiveMinimum: 0 } })
      .optional()
      .meta({ description: 'Days after an invoice’s first failed charge at which dunning retries it. Default: the worker’s schedule (1, 3, 5, 7).' }),
    on_dunning_exhausted: z
      .enum(EXHAUSTION_ACTIONS)
      .optional()
      .meta({ description: 'CANCEL (default): UNPAID, then CANCELLED with reason DUNNING_EXHAUSTED. REMAIN_UNPAID: stays UNPAID, bills no more.' }),
    days_until_due: z
      .number()
      .int()
      .min(1)
      .max(MAX_DAYS_UNTIL_DUE)
      .optional()
      .meta({ description: 'collection_method SEND_INVOICE only: each invoice is due this many days after it is issued. Default 30.' }),
    usage_grace_minutes: z
      .number()
      .int()
      .min(0)
      .max(MAX_USAGE_GRACE_MINUTES)
      .optional()
      .meta({ description: 'Extension (docs/usage.md): minutes after a period ends before its usage is invoiced, for late events. Default 60.' }),
  })
  .meta({ description: 'Settings the spec leaves open: docs/subscriptions.md, "Settings".' });

export const trialRequest = z
  .strictObject({
    type: z.enum(['FREE', 'PAID']),
    amount: z.number().int().min(1).max(MAX_PRICE_AMOUNT).optional().meta({ description: 'PAID only (required): invoiced when the trial starts.' }),
    end_at: dateTime.optional(),
    period_config: billingPeriodConfig.optional().meta({ description: 'The trial as a duration from the start. Neither this nor end_at: open-ended.' }),
  })
  .superRefine((trial, ctx) => {
    const issue = (path: string, type: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message, params: { type } });
    if (trial.type === 'PAID' && trial.amount === undefined) issue('amount', 'REQUIRED', 'A PAID trial has an amount.');
    if (trial.type === 'FREE' && trial.amount !== undefined) issue('amount', 'INVALID', 'A FREE trial has no amount.');
    if (trial.end_at !== undefined && trial.period_config !== undefined) issue('period_config', 'INVALID', 'Give end_at or period_config, not both.');
  })
  .meta({
    oneOf: [
      { properties: { type: { const: 'PAID' } }, required: ['amount'] },
      { properties: { type: { const: 'FREE' } }, not: { required: ['amount'] } },
    ],
    not: { required: ['end_at', 'period_config'] },
  });

export const createSubscriptionRequest = z.strictObject({
  channel_id: channelIdField,
  customer_id: prefixedId('customer'),
  payment_instrument_id: prefixedId('paymentInstrument').optional().meta({ description: 'Left out: the customer’s default instrument, if any.' }),
  collection_method: z
    .enum(COLLECTION_METHODS)
    .optional()
    .meta({
      description:
        'CHARGE_AUTOMATICALLY: every invoice is charged on the instrument (one is required). SEND_INVOICE: every invoice is issued OPEN with a due date and paid with invoices/pay. Left out: CHARGE_AUTOMATICALLY when an instrument is named or the customer has a default one, or the trial is PAID; else SEND_INVOICE.',
    }),
  line_items: z.array(subscriptionLineRequest).min(1).max(MAX_SUBSCRIPTION_LINE_ITEMS),
  starts_at: dateTime.optional().meta({ description: 'In the future: the subscription is CREATED until then. Left out: it starts now.' }),
  anchor_at: dateTime.optional().meta({ description: 'Cycle boundaries are anchor_at ± whole periods. Default: when billing starts (the start, or the trial end).' }),
  ends_at: dateTime.optional().meta({ description: 'Fixed term: EXPIRED then; the last period is cut there and prorated.' }),
  trial: trialRequest.optional(),
  discounts: discountsRequest.optional(),
  description: z.string().trim().min(1).regex(/\S/).max(500).optional(),
  metadata: metadata.optional(),
  merchant_reference: z.string().trim().min(1).regex(/\S/).max(100).optional(),
  settings: settingsRequest.optional(),
}).meta({
  // services/subscriptions/references.ts, subscriptionCollection. Left out, the method follows the
  // customer's default instrument, which no schema can see. Each `then` names one property and
  // says the others are open: a strict validator (redocly's) otherwise reads a subschema with
  // `properties` as closed, and refused every field of a valid body as unevaluated.
  allOf: [
    {
      if: { properties: { collection_method: { const: 'CHARGE_AUTOMATICALLY' } }, required: ['collection_method'] },
      then: { properties: { settings: { not: { required: ['days_until_due'] } } }, additionalProperties: true },
    },
    {
      if: { properties: { collection_method: { const: 'SEND_INVOICE' } }, required: ['collection_method'] },
      then: { properties: { trial: { not: { properties: { type: { const: 'PAID' } }, required: ['type'] } } }, additionalProperties: true },
    },
  ],
});

export const cancelSubscriptionRequest = z.strictObject({
  id: subscriptionId,
  channel_id: channelIdField,
  mode: z
    .enum(CANCELLATION_MODES)
    .optional()
    .meta({ description: 'Left out (or IMMEDIATELY): cancels now, as section 3 says. PERIOD_END: at the end of the current period (the trial’s end while TRIALING).' }),
  reason: cancellationReason
    .exclude(['DUNNING_EXHAUSTED'])
    .optional()
    .meta({ description: 'Default CANCELLATION_REQUESTED. DUNNING_EXHAUSTED is the platform’s own.' }),
  comment: z.string().trim().min(1).regex(/\S/).max(500).optional(),
});

export const deleteCancellationRequest = z.strictObject({ id: subscriptionId, channel_id: channelIdField });

export const updateSubscriptionRequest = z.strictObject({
  id: subscriptionId,
  channel_id: channelIdField,
  payment_instrument_id: prefixedId('paymentInstrument').optional().meta({ description: 'An ACTIVE instrument of the customer; used from the next invoice.' }),
  discounts: discountsRequest.optional().meta({ description: 'Replaces the discounts; [] removes them. From the next invoice.' }),
  description: z.string().trim().min(1).regex(/\S/).max(500).nullable().optional(),
  metadata: metadata.nullable().optional(),
  merchant_reference: z.string().trim().min(1).regex(/\S/).max(100).nullable().optional(),
  end_trial: z.literal(true).optional().meta({ description: 'Ends a TRIALING subscription’s trial now: billing starts at once.' }),
  proration_credit: z.enum(PRORATION_CREDIT_DESTINATIONS).optional().meta({
    description:
      'Extension (docs/customer-balance.md): where a net proration credit of this change goes, CUSTOMER_BALANCE (a credit invoice, credited to the customer balance) or REFUND (to the card). Defaults to the account’s setting, CUSTOMER_BALANCE unless the operator changed it.',
  }),
  line_items: z
    .strictObject({
      add: z.array(subscriptionLineRequest).max(MAX_SUBSCRIPTION_LINE_ITEMS).optional(),
      update: z
        .array(
          z
            .strictObject({
              id: prefixedId('subscriptionLineItem'),
              quantity: z.number().int().min(1).max(MAX_QUANTITY).optional(),
              product_price_id: catalogueId.optional(),
              tax: lineTaxRequest.nullable().optional().meta({ description: 'Sets the line’s tax; null removes it.' }),
            })
            .refine((change) => change.quantity !== undefined || change.product_price_id !== undefined || change.tax !== undefined, {
              message: 'Give quantity, product_price_id, tax, or several.',
              params: { type: 'REQUIRED' },
            })
            .meta({ anyOf: [{ required: ['quantity'] }, { required: ['product_price_id'] }, { required: ['tax'] }] }),
        )
        .max(MAX_SUBSCRIPTION_LINE_ITEMS)
        .optional(),
      remove: z.array(prefixedId('subscriptionLineItem')).max(MAX_SUBSCRIPTION_LINE_ITEMS).optional(),
    })
    .optional()
    .meta({ description: 'Add, change or remove line items; while ACTIVE the change is prorated (docs/subscriptions.md, "Proration").' }),
});


/* ---------- the record (section 2.4) ---------- */

const periodConfigObject = z.object({ value: z.number().int(), unit: z.enum(BILLING_PERIOD_UNITS) });

export const subscriptionLineItemObject = z.object({
  id: z.string(),
  billing_type: billingType,
  currency: z.string(),
  amount: z.number().int().meta({ description: 'Unit amount, minor units.' }),
  quantity: z.number().int(),
  started_at: dateTime.optional(),
  period: z.object({ start_at: dateTime, end_at: dateTime.optional() }).meta({ description: 'The period last billed (or to be billed first); ONE_TIME: since it was added, open-ended.' }),
  billing_period_config: periodConfigObject.optional(),
  product_info: z.object({ name: z.string(), description: z.string().optional() }),
  product_id: z.string(),
  product_price_id: z.string(),
  tax: z
    .object({ category_id: z.string().optional(), mode: z.enum(TAX_MODES), rate: z.number() })
    .optional()
    .meta({ description: 'The tax every invoice line of this item carries (an addition to section 2.4); absent: untaxed.' }),
  created_at: dateTime,
  updated_at: dateTime,
});

export const trialInfoObject = z.object({
  type: z.enum(['FREE', 'PAID']),
  period: z.object({ start_at: dateTime, end_at: dateTime.optional() }),
  amount: z.number().int(),
  period_config: periodConfigObject.optional().meta({ description: 'The trial duration, when it was requested as one.' }),
});

export const cancellationInfoObject = z.object({
  cancel_at: dateTime,
  requested_at: dateTime,
  reason: cancellationReason,
  comment: z.string().optional(),
  mode: z.enum(CANCELLATION_MODES),
  requested_by: z
    .literal('CUSTOMER')
    .optional()
    .meta({ description: 'Extension (docs/portal.md): the customer asked for it in the customer portal, and may take it back there. Absent: the merchant’s (or the platform’s) own.' }),
});

export const subscriptionDiscountObject = z.object({
  coupon_id: z.string().optional(),
  coupon_code: z.string().optional(),
  calculation_type: calculationType.optional(),
  calculation_value: z.number().optional(),
});

export const settingsObject = z.object({
  dunning_retry_schedule_days: z.array(z.number()).optional(),
  on_dunning_exhausted: z.enum(EXHAUSTION_ACTIONS),
  days_until_due: z.number().int().optional(),
  usage_grace_minutes: z.number().int().optional(),
});

export const subscriptionObject = z
  .object({
    id: z.string(),
    channel_id: z.string().meta({ description: 'The channel of the subscription’s customer.' }),
    status: subscriptionStatus,
    currency: z.string(),
    line_items: z.array(subscriptionLineItemObject),
    customer_id: z.string(),
    payment_instrument_id: z.string().optional(),
    collection_method: z.enum(COLLECTION_METHODS).meta({ description: 'How its invoices are collected (an addition to section 2.4): docs/subscriptions.md, "Collection".' }),
    latest_invoice_id: z.string().optional(),
    started_at: dateTime.optional(),
    start_scheduled_at: dateTime.optional(),
    next_billing_at: dateTime.optional(),
    anchor_at: dateTime.optional(),
    ends_at: dateTime.optional().meta({ description: 'Fixed term: EXPIRED then.' }),
    trial_info: trialInfoObject.optional(),
    cancellation_info: cancellationInfoObject.optional(),
    discounts: z.array(subscriptionDiscountObject),
    metadata: metadataObject.optional(),
    description: z.string().optional(),
    merchant_reference: z.string().optional(),
    settings: settingsObject,
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'Subscription' }) satisfies z.ZodType<SubscriptionObject>;


export const statusChangeObject = z
  .object({
    id: z.string().meta({ description: 'Prefix `ssch_`.' }),
    subscription_id: z.string(),
    from_status: subscriptionStatus.optional().meta({ description: 'Absent on the first entry: the status the subscription was created with.' }),
    to_status: subscriptionStatus,
    cause: z
      .enum(STATUS_CHANGE_CAUSES)
      .optional()
      .meta({ description: 'Why it changed (docs/subscriptions.md, "Status history"); a move to CANCELLED carries the cancellation’s reason.' }),
    occurred_at: dateTime,
  })
  .meta({ id: 'SubscriptionStatusChange' }) satisfies z.ZodType<StatusChangeObject>;
