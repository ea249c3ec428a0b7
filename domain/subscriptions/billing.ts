import { periodContaining, prorate } from '../billing-periods';
import type { CollectionMethod } from '../collection-methods';
import type { EventName } from '../event-catalogue';
import { requireTransition, type SubscriptionStatus } from '../subscription-status';
import { DEFAULT_USAGE_GRACE_MINUTES } from '../usage/ingestion-window';
import type { UsageLineDetail } from '../usage/usage-line';
import { day, DEFAULT_DAYS_UNTIL_DUE, recurringPeriod, touch, type Line, type LineTax, type Step, type SubscriptionState } from './state';

const DAY_MS = 24 * 60 * 60 * 1000;

export type InvoiceKind = 'trial' | 'cycle' | 'proration';

export interface PlannedLine {
  productPriceId: string | null;
  description: string;
  /** Unit amount, minor units. */
  amount: number;
  quantity: number;
  tax: LineTax | null;
  /** Usage lines only, made by the activity that measures them. */
  usage?: UsageLineDetail;
}

/**
 * A usage line's period to bill, in arrears: what its meter measured in [start, end) is only
 * known to the activity that issues the invoice (services/subscriptions/usage-lines.ts), which
 * also bills, as adjustments, what late events added to periods billed before.
 */
export interface PlannedUsage {
  productPriceId: string;
  productName: string;
  start: number;
  end: number;
  tax: LineTax | null;
}

export interface PlannedInvoice {
  kind: InvoiceKind;
  /** Names the invoice for good: the activity derives its id from it, so a retry finds it instead of making a second. */
  key: string;
  billingReason: 'SUBSCRIPTION_CREATE' | 'SUBSCRIPTION_CYCLE';
  lines: PlannedLine[];
  /** Usage periods the invoice bills after `lines`; absent on invoices planned before usage prices. */
  usage?: PlannedUsage[];
}

/**
 * The invoice due at `dueAt` and the state once it is issued. The PAID trial is invoiced first
 * for its amount; every other invoice bills the period [dueAt, next boundary from the anchor),
 * cut at `ends_at`. A period shorter than its full cycle (a start or trial end off the anchor,
 * or ends_at) bills each line's subtotal prorated by seconds, rounded half up once per line.
 * ONE_TIME lines not yet billed ride on the first regular invoice after they were added.
 */
export function billCycle(state: SubscriptionState, dueAt: number, now: number): { step: Step; invoice: PlannedInvoice } {
  requireTransition('bill', state.status);
  const first = state.cycleCount === 0;
  const billingReason = first ? 'SUBSCRIPTION_CREATE' : 'SUBSCRIPTION_CYCLE';
  const key = `cycle/${state.cycleCount + 1}`;
  const status: SubscriptionStatus = state.status === 'ACTIVE' ? 'ACTIVE' : 'PENDING';
  const events: EventName[] = status !== state.status && state.status !== 'CREATED' ? ['SubscriptionUpdated'] : [];
  // started_at is when it was due to start, not when the worker got to it.
  const common = { status, startedAt: state.startedAt ?? dueAt, startScheduledAt: null, cycleCount: state.cycleCount + 1 };

  if (state.trial?.type === 'PAID' && first) {
    const trialEnd = state.trial.endAt;
    const description = `Trial${trialEnd === null ? ` from ${day(dueAt)}` : ` ${day(dueAt)} – ${day(trialEnd)}`}`;
    return {
      step: { state: touch(state, now, { ...common, nextCycleAt: trialEnd }), events },
      invoice: { kind: 'trial', key, billingReason, lines: [{ productPriceId: null, description, amount: state.trial.amount, quantity: 1, tax: null }] },
    };
  }

  const period = recurringPeriod(state);
  const anchor = state.anchorAt ?? dueAt;
  const full = periodContaining(anchor, period, dueAt);
  const end = state.endsAt !== null && state.endsAt < full.end ? state.endsAt : full.end;
  const partial = dueAt > full.start || end < full.end;
  const lines: PlannedLine[] = [];
  const usage: PlannedUsage[] = [];
  const lineItems = state.lineItems.map((line): Line => {
    if (line.billingType === 'USAGE') {
      if (line.startedAt !== null && line.periodStartAt < dueAt) {
        usage.push({ productPriceId: line.productPriceId, productName: line.productName, start: line.periodStartAt, end: dueAt, tax: line.tax ?? null });
      }
      return { ...line, startedAt: line.startedAt ?? dueAt, periodStartAt: dueAt, periodEndAt: end, updatedAt: now };
    }
    if (line.billingType === 'RECURRING') {
      const subtotal = line.amount * line.quantity;
      const span = `${day(dueAt)} – ${day(end)}`;
      lines.push(
        partial
          ? { productPriceId: line.productPriceId, description: `${line.productName} × ${line.quantity} (${span}, prorated)`, amount: prorate(subtotal, end - dueAt, full.end - full.start), quantity: 1, tax: line.tax ?? null }
          : { productPriceId: line.productPriceId, description: `${line.productName} (${span})`, amount: line.amount, quantity: line.quantity, tax: line.tax ?? null },
      );
      return { ...line, startedAt: line.startedAt ?? dueAt, periodStartAt: dueAt, periodEndAt: end, updatedAt: now };
    }
    if (line.billedAt !== null) return line;
    lines.push({ productPriceId: line.productPriceId, description: line.productName, amount: line.amount, quantity: line.quantity, tax: line.tax ?? null });
    return { ...line, startedAt: line.startedAt ?? now, billedAt: now, updatedAt: now };
  });
  if (lines.length === 0 && usage.length === 0) {
    // A subscription of usage lines alone starts with nothing to bill; its first invoice says so,
    // for nothing, so it is paid at once and the subscription goes on as any other.
    const first = state.lineItems.find((line) => line.billingType === 'USAGE')!;
    lines.push({ productPriceId: first.productPriceId, description: `${first.productName}: usage from ${day(dueAt)}, billed at the period's end`, amount: 0, quantity: 1, tax: null });
  }
  return {
    step: { state: touch(state, now, { ...common, anchorAt: anchor, nextCycleAt: end, lineItems }), events },
    invoice: { kind: 'cycle', key, billingReason, lines, ...(usage.length > 0 ? { usage } : {}) },
  };
}

/** When a subscription's usage lines stopped measuring: its cancellation's or expiry's time. */
function endedAt(state: SubscriptionState): number {
  if (state.status === 'CANCELLED' && state.cancellation) return state.cancellation.cancelAt;
  return state.endsAt ?? state.updatedAt;
}

/** Milliseconds a subscription's invoice waits after its period's end for late usage events. */
export function usageGraceMs(state: Pick<SubscriptionState, 'settings'>): number {
  return (state.settings.usage_grace_minutes ?? DEFAULT_USAGE_GRACE_MINUTES) * 60 * 1000;
}

/** Whether a subscription's usage lines have measured a period not yet billed. */
export function measuresUsage(state: Pick<SubscriptionState, 'lineItems'>): boolean {
  return state.lineItems.some((line) => line.billingType === 'USAGE' && line.startedAt !== null);
}

/**
 * The last usage of a subscription that ended (docs/usage.md, "Subscriptions"): its usage
 * lines' periods up to the end, invoiced once the grace after the end has passed. Null when
 * there is none. The step closes the lines, so it bills once.
 */
export function finalUsage(state: SubscriptionState, now: number): { at: number; step: Step; invoice: PlannedInvoice } | null {
  const end = endedAt(state);
  const usage: PlannedUsage[] = [];
  const lineItems = state.lineItems.map((line): Line => {
    if (line.billingType !== 'USAGE' || line.startedAt === null || line.periodStartAt >= end) return line;
    const plan = (start: number, until: number) => usage.push({ productPriceId: line.productPriceId, productName: line.productName, start, end: until, tax: line.tax ?? null });
    // Ended inside the grace of a boundary not yet billed: the period before it and the part
    // after it are two periods, each priced on its own (tiers start again every period).
    const boundary = line.periodEndAt;
    if (boundary !== null && line.periodStartAt < boundary && boundary < end) {
      plan(line.periodStartAt, boundary);
      plan(boundary, end);
    } else {
      plan(line.periodStartAt, end);
    }
    return { ...line, periodStartAt: end, periodEndAt: end, updatedAt: now };
  });
  if (usage.length === 0) return null;
  return {
    at: end + usageGraceMs(state),
    step: { state: touch(state, now, { lineItems }), events: [] },
    // Keyed by the end: a subscription restored and ended again has a final invoice per end.
    invoice: { kind: 'cycle', key: `usage/final/${end}`, billingReason: 'SUBSCRIPTION_CYCLE', lines: [], usage },
  };
}

/**
 * How an invoice issued at `issuedAt` is collected: charged on the instrument, or sent with a
 * due date `days_until_due` days later, to be paid by hand (docs/subscriptions.md, "Collection").
 */
export function invoiceTerms(state: SubscriptionState, issuedAt: number): { collectionMethod: CollectionMethod; dueAt: number | null } {
  if (state.collectionMethod !== 'SEND_INVOICE') return { collectionMethod: 'CHARGE_AUTOMATICALLY', dueAt: null };
  return { collectionMethod: 'SEND_INVOICE', dueAt: issuedAt + (state.settings.days_until_due ?? DEFAULT_DAYS_UNTIL_DUE) * DAY_MS };
}
