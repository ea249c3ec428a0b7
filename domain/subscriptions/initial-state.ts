import { addPeriod, nextBoundaryAfter, type BillingPeriod } from '../billing-periods';
import type { CollectionMethod } from '../collection-methods';
import { ApiError } from '../errors';
import type { EventName } from '../event-catalogue';
import type { SubscriptionStatus } from '../subscription-status';
import { requireOneBillingPeriod } from './lines';
import { isPeriodic } from '../billing-types';
import { DEFAULT_SETTINGS, type Discount, type Line, type Step, type SubscriptionSettings, type SubscriptionState, type Trial, type TrialType } from './state';
import type { NewLine } from './update';
import type { Metadata } from '../metadata';

/** The times a create request names, as epoch milliseconds (absent: null). */
export interface RequestedTimes {
  startsAt: number | null;
  trial: { type: TrialType; amount: number | null; endAt: number | null; periodConfig: BillingPeriod | null } | null;
  anchorAt: number | null;
  endsAt: number | null;
}

/** When a new subscription starts, its trial, the anchor its periods count from and when it ends. */
export interface Schedule {
  startsAt: number | null;
  /** starts_at, or now. */
  start: number;
  trial: Trial | null;
  /** When the first period is billed from: the trial's end (null: open-ended trial), else the start. */
  billingStart: number | null;
  anchorAt: number | null;
  endsAt: number | null;
}

function after(field: string, value: number, limit: number, what: string): void {
  if (value <= limit) throw ApiError.validation({ [field]: { type: 'MIN', message: `Must be after ${what}.` } });
}

/**
 * The schedule of a create request (docs/subscriptions.md, "Create"): starts_at after now, a
 * trial ending after the start (its end_at, or the start plus its period_config), ends_at after
 * the trial or the start; 400 otherwise. The anchor defaults to when billing starts.
 */
export function scheduleOf(requested: RequestedTimes, now: number): Schedule {
  const { startsAt } = requested;
  if (startsAt !== null) after('starts_at', startsAt, now, 'now');
  const start = startsAt ?? now;
  let trial: Trial | null = null;
  if (requested.trial) {
    const { type, amount, periodConfig } = requested.trial;
    const endAt = requested.trial.endAt ?? (periodConfig ? addPeriod(start, periodConfig) : null);
    if (endAt !== null) after('trial.end_at', endAt, start, 'the start');
    trial = { type, amount: amount ?? 0, startAt: start, endAt, periodConfig };
  }
  const billingStart = trial ? trial.endAt : start;
  const anchorAt = requested.anchorAt ?? billingStart;
  const { endsAt } = requested;
  if (endsAt !== null) after('ends_at', endsAt, billingStart ?? start, trial ? 'the trial' : 'the start');
  return { startsAt, start, trial, billingStart, anchorAt, endsAt };
}

/**
 * The end of the first period a new subscription's RECURRING lines show: the trial's end, else
 * the first boundary from the anchor after billing starts (the anchor may lie on either side),
 * cut at ends_at.
 */
export function firstPeriodEnd(schedule: Schedule, period: BillingPeriod): number | null {
  if (schedule.trial) return schedule.trial.endAt;
  return Math.min(nextBoundaryAfter(schedule.anchorAt!, period, schedule.billingStart!), schedule.endsAt ?? Number.POSITIVE_INFINITY);
}

/** What a new subscription is made of once the request's references are resolved. */
export interface NewSubscription {
  id: string;
  accountId: string;
  channelId: string;
  customerId: string;
  currency: string;
  paymentInstrumentId: string | null;
  collectionMethod: CollectionMethod;
  description: string | null;
  merchantReference: string | null;
  metadata: Metadata | null;
  discounts: Discount[];
  settings: Partial<SubscriptionSettings>;
  lines: readonly NewLine[];
}

/** A create request's lines: one RECURRING at least, all on one billing period, which is returned. */
export function newSubscriptionPeriod(lines: NewSubscription['lines']): BillingPeriod {
  return requireOneBillingPeriod(lines, null, { lines: 'line_items', price: (index) => `line_items[${index}].product_price_id` });
}

/**
 * The first state of a subscription and the events of its creation: CREATED until starts_at,
 * else TRIALING for a FREE trial (its first invoice when the trial ends), else PENDING with its
 * first invoice due now (a PAID trial's, or the first period's).
 */
export function initialState(subscription: NewSubscription, schedule: Schedule, now: number): Step {
  const period = newSubscriptionPeriod(subscription.lines);
  const periodEndAt = firstPeriodEnd(schedule, period);
  const { startsAt, start, trial } = schedule;
  const status: SubscriptionStatus = startsAt !== null ? 'CREATED' : trial?.type === 'FREE' ? 'TRIALING' : 'PENDING';
  const { lines, settings, ...fields } = subscription;
  const state: SubscriptionState = {
    ...fields,
    status,
    latestInvoiceId: null,
    trial,
    cancellation: null,
    settings: { ...DEFAULT_SETTINGS, ...settings },
    startScheduledAt: startsAt,
    startedAt: startsAt === null ? now : null,
    anchorAt: schedule.anchorAt,
    endsAt: schedule.endsAt,
    nextCycleAt: trial?.type === 'FREE' ? trial.endAt : start,
    cycleCount: 0,
    version: 1,
    createdAt: now,
    updatedAt: now,
    lineItems: lines.map(
      (line): Line => ({
        ...line,
        startedAt: null,
        periodStartAt: start,
        periodEndAt: isPeriodic(line.billingType) ? periodEndAt : null,
        billedAt: null,
        createdAt: now,
        updatedAt: now,
      }),
    ),
  };
  const events: EventName[] = status === 'TRIALING' ? ['SubscriptionCreated', 'SubscriptionTrialActivated'] : ['SubscriptionCreated'];
  return { state, events };
}
