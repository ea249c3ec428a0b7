import type { ProrationCreditDestination } from '../../domain/balance-transactions';
import type { BillingPeriod } from '../../domain/billing-periods';
import type { CollectionMethod } from '../../domain/collection-methods';
import type { ExhaustionAction, TrialType } from '../../domain/subscriptions/state';
import type { LineTaxRequest } from './references';
import type { Metadata } from '../../domain/metadata';

/*
 * What subscriptions/create and subscriptions/update ask of the services, already validated:
 * api/subscriptions/schemas.ts parses requests with zod into these shapes.
 */

export interface SubscriptionLineRequest {
  product_price_id: string;
  quantity: number;
  tax?: LineTaxRequest;
}

/** A coupon by id or by code. */
export interface SubscriptionDiscountRequest {
  coupon_id?: string;
  coupon_code?: string;
}

export interface SubscriptionSettingsRequest {
  dunning_retry_schedule_days?: number[];
  on_dunning_exhausted?: ExhaustionAction;
  days_until_due?: number;
  usage_grace_minutes?: number;
}

export interface CreateSubscriptionInput {
  customer_id: string;
  payment_instrument_id?: string;
  collection_method?: CollectionMethod;
  line_items: SubscriptionLineRequest[];
  starts_at?: string;
  anchor_at?: string;
  ends_at?: string;
  trial?: { type: TrialType; amount?: number; end_at?: string; period_config?: BillingPeriod };
  discounts?: SubscriptionDiscountRequest[];
  description?: string;
  metadata?: Metadata;
  merchant_reference?: string;
  settings?: SubscriptionSettingsRequest;
}

export interface UpdateSubscriptionInput {
  payment_instrument_id?: string;
  discounts?: SubscriptionDiscountRequest[];
  description?: string | null;
  metadata?: Metadata | null;
  merchant_reference?: string | null;
  end_trial?: true;
  proration_credit?: ProrationCreditDestination;
  line_items?: {
    add?: SubscriptionLineRequest[];
    update?: { id: string; quantity?: number; product_price_id?: string; tax?: LineTaxRequest | null }[];
    remove?: string[];
  };
}
