import { formatDateTime } from '../../domain/datetime';
import type { BillingPeriod } from '../../domain/billing-periods';
import type { BillingType } from '../../domain/billing-types';
import type { CollectionMethod } from '../../domain/collection-methods';
import type { TaxMode } from '../../domain/invoice-amounts';
import type { CancellationMode, CancellationReason, SubscriptionStatus } from '../../domain/subscription-status';
import type { ExhaustionAction, TrialType } from '../../domain/subscriptions/state';
import type { SubscriptionRow } from './subscription-row';
import type { Metadata } from '../../domain/metadata';

/*
 * The section 2.4 subscription. api/subscriptions/schemas.ts declares the same shape as zod for
 * the contract and checks it against these types; tRPC validates every answer with it.
 */

export interface PeriodConfigJson {
  value: number;
  unit: BillingPeriod['unit'];
}

export interface SubscriptionLineItemObject {
  id: string;
  billing_type: BillingType;
  currency: string;
  amount: number;
  quantity: number;
  started_at?: string;
  period: { start_at: string; end_at?: string };
  billing_period_config?: PeriodConfigJson;
  product_info: { name: string; description?: string };
  product_id: string;
  product_price_id: string;
  tax?: { category_id?: string; mode: TaxMode; rate: number };
  created_at: string;
  updated_at: string;
}

/** `trial_info`, also as the row's `trial_info` column stores it. */
export interface TrialInfoJson {
  type: TrialType;
  period: { start_at: string; end_at?: string };
  amount: number;
  period_config?: PeriodConfigJson;
}

/** `cancellation_info`, also as the row's `cancellation_info` column stores it. */
export interface CancellationInfoJson {
  cancel_at: string;
  requested_at: string;
  reason: CancellationReason;
  comment?: string;
  mode: CancellationMode;
  /** Extension: the customer asked for it in the customer portal. */
  requested_by?: 'CUSTOMER';
}

export interface SubscriptionDiscountObject {
  coupon_id?: string;
  coupon_code?: string;
  calculation_type?: 'PERCENTAGE' | 'AMOUNT';
  calculation_value?: number;
}

export interface SubscriptionSettingsObject {
  dunning_retry_schedule_days?: number[];
  on_dunning_exhausted: ExhaustionAction;
  days_until_due?: number;
  usage_grace_minutes?: number;
}

export interface SubscriptionObject {
  id: string;
  channel_id: string;
  status: SubscriptionStatus;
  currency: string;
  line_items: SubscriptionLineItemObject[];
  customer_id: string;
  payment_instrument_id?: string;
  collection_method: CollectionMethod;
  latest_invoice_id?: string;
  started_at?: string;
  start_scheduled_at?: string;
  next_billing_at?: string;
  anchor_at?: string;
  ends_at?: string;
  trial_info?: TrialInfoJson;
  cancellation_info?: CancellationInfoJson;
  discounts: SubscriptionDiscountObject[];
  metadata?: Metadata;
  description?: string;
  merchant_reference?: string;
  settings: SubscriptionSettingsObject;
  created_at: string;
  updated_at: string;
}

function present<T>(key: string, value: T | null | undefined): Record<string, T> {
  return value === null || value === undefined ? {} : { [key]: value };
}

const at = (value: Date | null | undefined) => (value ? formatDateTime(value) : undefined);

/**
 * The section 2.4 subscription: what get and list answer and every subscription event carries
 * under `data.subscription`. The one serializer; the row is the read model the workflow writes.
 */
export function serializeSubscription(row: SubscriptionRow): SubscriptionObject {
  return {
    id: row.id,
    channel_id: row.channelId,
    status: row.status as SubscriptionObject['status'],
    currency: row.currency,
    line_items: row.lineItems.map((line) => ({
      id: line.id,
      billing_type: line.billingType as BillingType,
      currency: line.currency,
      amount: line.amount,
      quantity: line.quantity,
      ...present('started_at', at(line.startedAt)),
      period: { start_at: formatDateTime(line.periodStartAt), ...present('end_at', at(line.periodEndAt)) },
      ...(line.billingPeriodValue !== null && line.billingPeriodUnit !== null
        ? { billing_period_config: { value: line.billingPeriodValue, unit: line.billingPeriodUnit as BillingPeriod['unit'] } }
        : {}),
      product_info: { name: line.productName, ...present('description', line.productDescription) },
      product_id: line.productId,
      product_price_id: line.productPriceId,
      ...(line.taxMode !== null && line.taxRate !== null
        ? { tax: { ...present('category_id', line.taxCategoryId), mode: line.taxMode as TaxMode, rate: Number(line.taxRate.toString()) } }
        : {}),
      created_at: formatDateTime(line.createdAt),
      updated_at: formatDateTime(line.updatedAt),
    })),
    customer_id: row.customerId,
    ...present('payment_instrument_id', row.paymentInstrumentId),
    collection_method: row.collectionMethod as CollectionMethod,
    ...present('latest_invoice_id', row.latestInvoiceId),
    ...present('started_at', at(row.startedAt)),
    ...present('start_scheduled_at', row.status === 'CREATED' ? at(row.startScheduledAt) : undefined),
    ...present('next_billing_at', at(row.nextBillingAt)),
    ...present('anchor_at', at(row.anchorAt)),
    ...present('ends_at', at(row.endsAt)),
    ...present('trial_info', row.trialInfo as TrialInfoJson | null),
    ...present('cancellation_info', row.cancellationInfo as CancellationInfoJson | null),
    discounts: row.discounts as SubscriptionObject['discounts'],
    ...present('metadata', row.metadata as Metadata | null),
    ...present('description', row.description),
    ...present('merchant_reference', row.merchantReference),
    settings: row.settings as unknown as SubscriptionObject['settings'],
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
