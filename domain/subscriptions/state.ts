import type { BillingPeriod } from '../billing-periods';
import type { BillingType } from '../billing-types';
import type { CollectionMethod } from '../collection-methods';
import { formatDateTime } from '../datetime';
import type { EventName } from '../event-catalogue';
import type { TaxMode } from '../invoice-amounts';
import type { CancellationMode, CancellationReason, SubscriptionStatus } from '../subscription-status';
import type { Metadata } from '../metadata';

/**
 * The state a subscription workflow owns, and every change to it as a pure step
 * (docs/subscriptions.md). Times are epoch milliseconds; the workflow hands in its own clock,
 * so these functions read none and replay identically. The database row is this state written
 * out by an activity (services/subscriptions/repository.ts).
 */

export type TrialType = 'FREE' | 'PAID';
export const EXHAUSTION_ACTIONS = ['CANCEL', 'REMAIN_UNPAID'] as const;
export type ExhaustionAction = (typeof EXHAUSTION_ACTIONS)[number];

/** What the merchant says of a line's tax, as on invoice lines (docs/invoices.md): there is no tax engine. */
export interface LineTax {
  categoryId: string | null;
  mode: TaxMode;
  /** Percent, at most four decimals. */
  rate: number;
}

export interface Discount {
  coupon_id: string;
  coupon_code: string;
  calculation_type: 'PERCENTAGE' | 'AMOUNT';
  calculation_value: number;
}

/** The documented settings (docs/subscriptions.md, "Settings"), stored and served as they are. */
export interface SubscriptionSettings {
  /** Days after the first failed charge of an invoice at which dunning retries it; absent: the worker's schedule. */
  dunning_retry_schedule_days?: number[];
  /** What happens when an invoice of the subscription ends unpaid. */
  on_dunning_exhausted: ExhaustionAction;
  /** SEND_INVOICE only: days from an invoice's issue to its due date; absent: DEFAULT_DAYS_UNTIL_DUE. */
  days_until_due?: number;
  /** Minutes after a period's end before its usage is invoiced, for late events; absent: 60 (docs/usage.md). */
  usage_grace_minutes?: number;
}

export interface Trial {
  type: TrialType;
  /** Minor units, 0 for FREE. */
  amount: number;
  startAt: number;
  /** Null: open-ended, it ends with subscriptions/update end_trial. */
  endAt: number | null;
  /** The duration as requested, when it was requested as one. */
  periodConfig: BillingPeriod | null;
}

export interface Cancellation {
  mode: CancellationMode;
  cancelAt: number;
  requestedAt: number;
  reason: CancellationReason;
  comment: string | null;
  /** Set when the customer asked for it in the customer portal; absent: the merchant (or the platform). */
  requestedBy?: 'CUSTOMER';
}

export interface Line {
  id: string;
  productId: string;
  productPriceId: string;
  productName: string;
  productDescription: string | null;
  billingType: BillingType;
  /** Unit amount in minor units. */
  amount: number;
  quantity: number;
  billingPeriod: BillingPeriod | null;
  /** Carried to every invoice line it bills. Absent in states written before lines had tax. */
  tax?: LineTax | null;
  /** When the line first counted for billing. */
  startedAt: number | null;
  /** The period the line was last billed for (or will first be billed for); ONE_TIME: when it was added. */
  periodStartAt: number;
  periodEndAt: number | null;
  /** ONE_TIME only: when it was invoiced. It bills once. */
  billedAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export interface SubscriptionState {
  id: string;
  accountId: string;
  channelId: string;
  customerId: string;
  currency: string;
  status: SubscriptionStatus;
  paymentInstrumentId: string | null;
  /** Fixed at create. Absent in states carried over from runs older than the setting: CHARGE_AUTOMATICALLY. */
  collectionMethod?: CollectionMethod;
  latestInvoiceId: string | null;
  description: string | null;
  merchantReference: string | null;
  metadata: Metadata | null;
  discounts: Discount[];
  trial: Trial | null;
  cancellation: Cancellation | null;
  settings: SubscriptionSettings;
  startScheduledAt: number | null;
  startedAt: number | null;
  anchorAt: number | null;
  endsAt: number | null;
  /** When the next invoice falls due. `next_billing_at` serves it only while one will really be made. */
  nextCycleAt: number | null;
  cycleCount: number;
  version: number;
  createdAt: number;
  updatedAt: number;
  lineItems: Line[];
}

export interface Step {
  state: SubscriptionState;
  events: EventName[];
}

export const DEFAULT_SETTINGS: SubscriptionSettings = { on_dunning_exhausted: 'CANCEL' };

/** The payment term of an invoice-billed subscription's invoices when its settings name none. */
export const DEFAULT_DAYS_UNTIL_DUE = 30;

/** The line whose period the subscription bills by: its first RECURRING line, else its first USAGE line. */
export function periodLine(state: Pick<SubscriptionState, 'lineItems'>): Line | undefined {
  return state.lineItems.find((item) => item.billingType === 'RECURRING') ?? state.lineItems.find((item) => item.billingType === 'USAGE');
}

export function recurringPeriod(state: Pick<SubscriptionState, 'lineItems'>): BillingPeriod {
  const line = periodLine(state);
  if (!line?.billingPeriod) throw new Error('A subscription always has a RECURRING or USAGE line item.');
  return line.billingPeriod;
}

/** Whether the subscription bills usage: its invoices then wait for the usage grace after each period's end. */
export function billsUsage(state: Pick<SubscriptionState, 'lineItems'>): boolean {
  return state.lineItems.some((item) => item.billingType === 'USAGE');
}

/** Every step moves the version on and stamps the time it was made. */
export function touch(state: SubscriptionState, now: number, changes: Partial<SubscriptionState>): SubscriptionState {
  return { ...state, ...changes, version: state.version + 1, updatedAt: now };
}

/** The UTC day of an instant, as invoice line descriptions show it. */
export function day(at: number): string {
  return formatDateTime(new Date(at)).slice(0, 10);
}
