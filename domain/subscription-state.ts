import type { CollectionMethod } from './collection-methods';
import { formatDateTime } from './datetime';
import { lineTax } from './invoice-amounts';
import type { EventName } from './event-catalogue';
import { nextBoundaryAfter, periodContaining, prorate, samePeriod, type BillingPeriod } from './billing-periods';
import {
  isTerminal,
  requireTransition,
  SubscriptionRefused,
  type CancellationMode,
  type CancellationReason,
  type SubscriptionStatus,
} from './subscription-status';

/**
 * The state a subscription workflow owns, and every change to it as a pure step
 * (docs/subscriptions.md). Times are epoch milliseconds; the workflow hands in its own clock,
 * so these functions read none and replay identically. The database row is this state written
 * out by an activity (api/subscriptions/repository.ts).
 */

export type BillingType = 'RECURRING' | 'ONE_TIME';
export type TrialType = 'FREE' | 'PAID';
export type ExhaustionAction = 'CANCEL' | 'REMAIN_UNPAID';

/** What the merchant says of a line's tax, as on invoice lines (docs/invoices.md): there is no tax engine. */
export interface LineTax {
  categoryId: string | null;
  mode: 'EXCLUSIVE' | 'INCLUSIVE';
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
  metadata: Record<string, string> | null;
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
const DAY_MS = 24 * 60 * 60 * 1000;

/* ---------- reading the state ---------- */

export function recurringPeriod(state: Pick<SubscriptionState, 'lineItems'>): BillingPeriod {
  const line = state.lineItems.find((item) => item.billingType === 'RECURRING');
  if (!line?.billingPeriod) throw new Error('A subscription always has a RECURRING line item.');
  return line.billingPeriod;
}

/** What `next_billing_at` shows: the next invoice, unless cancellation, expiry or the status means none comes. */
export function servedNextBillingAt(state: SubscriptionState): number | null {
  const at = state.nextCycleAt;
  if (at === null || !['CREATED', 'PENDING', 'TRIALING', 'ACTIVE', 'REDEMPTION'].includes(state.status)) return null;
  if (state.cancellation && state.cancellation.cancelAt <= at) return null;
  if (state.endsAt !== null && state.endsAt <= at) return null;
  return at;
}

/** The end of the period the subscription is in: the trial's end while TRIALING, else the billed period's. */
export function currentPeriodEnd(state: SubscriptionState): number | null {
  if (state.status === 'TRIALING') return state.trial?.endAt ?? null;
  const line = state.lineItems.find((item) => item.billingType === 'RECURRING');
  return line?.periodEndAt ?? state.nextCycleAt;
}

export type DueKind = 'cancel' | 'expire' | 'startTrial' | 'bill';

/** The next thing the workflow does by itself, and when. Ties go in this order: cancel, expire, start, bill. */
export function nextDue(state: SubscriptionState): { kind: DueKind; at: number } | null {
  if (isTerminal(state.status)) return null;
  const candidates: { kind: DueKind; at: number | null }[] = [
    { kind: 'cancel', at: state.cancellation?.mode === 'PERIOD_END' ? state.cancellation.cancelAt : null },
    { kind: 'expire', at: state.endsAt },
    { kind: 'startTrial', at: state.status === 'CREATED' && state.trial?.type === 'FREE' ? state.startScheduledAt : null },
    {
      kind: 'bill',
      at:
        ['PENDING', 'TRIALING', 'ACTIVE'].includes(state.status) || (state.status === 'CREATED' && state.trial?.type !== 'FREE')
          ? state.nextCycleAt
          : null,
    },
  ];
  let best: { kind: DueKind; at: number } | null = null;
  for (const candidate of candidates) {
    if (candidate.at !== null && (best === null || candidate.at < best.at)) best = { kind: candidate.kind, at: candidate.at };
  }
  return best;
}

function touch(state: SubscriptionState, now: number, changes: Partial<SubscriptionState>): SubscriptionState {
  return { ...state, ...changes, version: state.version + 1, updatedAt: now };
}

function day(at: number): string {
  return formatDateTime(new Date(at)).slice(0, 10);
}

/* ---------- invoicing a cycle ---------- */

export type InvoiceKind = 'trial' | 'cycle' | 'proration';

export interface PlannedLine {
  productPriceId: string | null;
  description: string;
  /** Unit amount, minor units. */
  amount: number;
  quantity: number;
  tax: LineTax | null;
}

export interface PlannedInvoice {
  kind: InvoiceKind;
  /** Names the invoice for good: the activity derives its id from it, so a retry finds it instead of making a second. */
  key: string;
  billingReason: 'SUBSCRIPTION_CREATE' | 'SUBSCRIPTION_CYCLE';
  lines: PlannedLine[];
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
  const lineItems = state.lineItems.map((line): Line => {
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
  return {
    step: { state: touch(state, now, { ...common, anchorAt: anchor, nextCycleAt: end, lineItems }), events },
    invoice: { kind: 'cycle', key, billingReason, lines },
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

/* ---------- payment outcomes ---------- */

export function dunningStarted(state: SubscriptionState, now: number): Step {
  requireTransition('dunningStarted', state.status);
  return { state: touch(state, now, { status: 'REDEMPTION' }), events: ['SubscriptionRedemptionStarted'] };
}

/**
 * The invoice of `kind` is settled: paid (or voided by the merchant, who waived it) or not.
 * Paid: back to TRIALING for a PAID trial still running, else ACTIVE. Not paid: UNPAID.
 */
export function paymentSettled(state: SubscriptionState, kind: InvoiceKind, paid: boolean, now: number): Step {
  if (!paid) {
    requireTransition('unpaid', state.status);
    return { state: touch(state, now, { status: 'UNPAID' }), events: ['SubscriptionUnpaid'] };
  }
  requireTransition('paid', state.status);
  const trialRunning = kind === 'trial' && state.trial !== null && (state.trial.endAt === null || state.trial.endAt > now);
  const status: SubscriptionStatus = trialRunning ? 'TRIALING' : 'ACTIVE';
  let events: EventName[];
  if (status === 'TRIALING') events = ['SubscriptionTrialActivated'];
  else if (state.status !== 'ACTIVE') events = ['SubscriptionActivated'];
  else events = kind === 'cycle' ? ['SubscriptionRenewed'] : [];
  if (status === state.status && events.length === 0) return { state, events };
  return { state: touch(state, now, { status }), events };
}

/* ---------- timed steps ---------- */

export function startTrial(state: SubscriptionState, now: number): Step {
  requireTransition('startTrial', state.status);
  return {
    state: touch(state, now, { status: 'TRIALING', startedAt: state.startScheduledAt ?? now, startScheduledAt: null }),
    events: ['SubscriptionTrialActivated'],
  };
}

export function expire(state: SubscriptionState, now: number): Step {
  requireTransition('expire', state.status);
  return { state: touch(state, now, { status: 'EXPIRED', nextCycleAt: null }), events: ['SubscriptionExpired'] };
}

export function cancelNow(state: SubscriptionState, now: number, reason: CancellationReason, comment: string | null, requestedAt = now): Step {
  requireTransition('cancel', state.status);
  return {
    state: touch(state, now, {
      status: 'CANCELLED',
      nextCycleAt: null,
      cancellation: { mode: 'IMMEDIATELY', cancelAt: now, requestedAt, reason, comment },
    }),
    events: ['SubscriptionCancelled'],
  };
}

/** A PERIOD_END cancellation falling due keeps what the request said, with mode and time as it happened. */
export function cancelScheduled(state: SubscriptionState, now: number): Step {
  const scheduled = state.cancellation!;
  const step = cancelNow(state, now, scheduled.reason, scheduled.comment, scheduled.requestedAt);
  return { state: { ...step.state, cancellation: { ...step.state.cancellation!, mode: 'PERIOD_END', cancelAt: scheduled.cancelAt } }, events: step.events };
}

/* ---------- requests (Updates of the workflow) ---------- */

export interface CancelRequest {
  mode: CancellationMode;
  reason: CancellationReason;
  comment: string | null;
}

export function validateCancel(state: SubscriptionState, request: CancelRequest): void {
  if (request.mode === 'IMMEDIATELY') {
    requireTransition('cancel', state.status);
    return;
  }
  requireTransition('scheduleCancellation', state.status);
  if (state.cancellation) {
    throw new SubscriptionRefused('CANCELLATION_ALREADY_SCHEDULED', `The subscription is already scheduled to cancel at ${formatDateTime(new Date(state.cancellation.cancelAt))}.`, {
      cancel_at: formatDateTime(new Date(state.cancellation.cancelAt)),
    });
  }
  if (currentPeriodEnd(state) === null) {
    throw new SubscriptionRefused('NO_PERIOD_END', 'The subscription is in an open-ended trial: it has no period end to cancel at; cancel IMMEDIATELY or end the trial first.');
  }
}

export function cancel(state: SubscriptionState, request: CancelRequest, now: number): Step {
  validateCancel(state, request);
  if (request.mode === 'IMMEDIATELY') return cancelNow(state, now, request.reason, request.comment);
  const cancellation: Cancellation = { mode: 'PERIOD_END', cancelAt: currentPeriodEnd(state)!, requestedAt: now, reason: request.reason, comment: request.comment };
  return { state: touch(state, now, { cancellation }), events: ['SubscriptionScheduledForCancellation'] };
}

export function validateDeleteCancellation(state: SubscriptionState): void {
  if (state.cancellation?.mode !== 'PERIOD_END' || isTerminal(state.status)) {
    throw new SubscriptionRefused('CANCELLATION_NOT_SCHEDULED', 'Only a scheduled PERIOD_END cancellation can be removed; this subscription has none.', {
      status: state.status,
    });
  }
}

export function deleteCancellation(state: SubscriptionState, now: number): Step {
  validateDeleteCancellation(state);
  return { state: touch(state, now, { cancellation: null }), events: ['SubscriptionUpdated'] };
}

/** A line the API resolved from a product price. */
export interface NewLine {
  id: string;
  productId: string;
  productPriceId: string;
  productName: string;
  productDescription: string | null;
  billingType: BillingType;
  amount: number;
  quantity: number;
  billingPeriod: BillingPeriod | null;
  tax: LineTax | null;
}

export interface PriceChange {
  productId: string;
  productPriceId: string;
  productName: string;
  productDescription: string | null;
  billingType: BillingType;
  amount: number;
  billingPeriod: BillingPeriod | null;
}

export interface SubscriptionChanges {
  paymentInstrumentId?: string;
  discounts?: Discount[];
  description?: string | null;
  metadata?: Record<string, string> | null;
  merchantReference?: string | null;
  endTrial?: boolean;
  addLines?: NewLine[];
  /** `tax`: an object sets it, null removes it, absent keeps it. */
  updateLines?: { id: string; quantity?: number; price?: PriceChange; tax?: LineTax | null }[];
  removeLineIds?: string[];
}

/** Subscription line items at most (docs/subscriptions.md, "Limits"). */
export const MAX_SUBSCRIPTION_LINE_ITEMS = 20;

function refuseLine(code: string, message: string, context: Record<string, unknown>): never {
  throw new SubscriptionRefused(code, message, context);
}

/** The lines after the requested changes, checked: ids exist, one billing period, at least one RECURRING. */
function changedLines(state: SubscriptionState, changes: SubscriptionChanges, now: number, periodOfNew: { start: number; end: number | null }): Line[] {
  const known = new Set(state.lineItems.map((line) => line.id));
  for (const [index, id] of (changes.removeLineIds ?? []).entries()) {
    if (!known.has(id)) refuseLine('LINE_ITEM_NOT_FOUND', `Line item ${id} is not on this subscription.`, { field: `line_items.remove[${index}]`, id });
  }
  for (const [index, change] of (changes.updateLines ?? []).entries()) {
    if (!known.has(change.id)) refuseLine('LINE_ITEM_NOT_FOUND', `Line item ${change.id} is not on this subscription.`, { field: `line_items.update[${index}].id`, id: change.id });
    if ((changes.removeLineIds ?? []).includes(change.id)) {
      refuseLine('LINE_ITEM_NOT_FOUND', `Line item ${change.id} is both updated and removed.`, { field: `line_items.update[${index}].id`, id: change.id });
    }
  }
  const removed = new Set(changes.removeLineIds ?? []);
  const updates = new Map((changes.updateLines ?? []).map((change) => [change.id, change]));
  const kept = state.lineItems
    .filter((line) => !removed.has(line.id))
    .map((line): Line => {
      const change = updates.get(line.id);
      if (!change) return line;
      return {
        ...line,
        ...(change.price ?? {}),
        ...(change.quantity !== undefined ? { quantity: change.quantity } : {}),
        ...(change.tax !== undefined ? { tax: change.tax } : {}),
        updatedAt: now,
      };
    });
  const added = (changes.addLines ?? []).map(
    (line): Line => ({
      ...line,
      startedAt: null,
      periodStartAt: line.billingType === 'RECURRING' ? periodOfNew.start : now,
      periodEndAt: line.billingType === 'RECURRING' ? periodOfNew.end : null,
      billedAt: null,
      createdAt: now,
      updatedAt: now,
    }),
  );
  const lines = [...kept, ...added];
  if (lines.length > MAX_SUBSCRIPTION_LINE_ITEMS) {
    refuseLine('TOO_MANY_LINE_ITEMS', `A subscription has at most ${MAX_SUBSCRIPTION_LINE_ITEMS} line items.`, { max: MAX_SUBSCRIPTION_LINE_ITEMS });
  }
  const recurring = lines.filter((line) => line.billingType === 'RECURRING');
  if (recurring.length === 0) refuseLine('RECURRING_LINE_ITEM_REQUIRED', 'A subscription needs at least one RECURRING line item.', {});
  const period = state.lineItems.find((line) => line.billingType === 'RECURRING')?.billingPeriod ?? recurring[0]!.billingPeriod!;
  for (const line of recurring) {
    if (!samePeriod(line.billingPeriod!, period)) {
      refuseLine('BILLING_PERIOD_MISMATCH', `Every RECURRING line bills every ${period.value} ${period.unit}; price ${line.productPriceId} bills every ${line.billingPeriod!.value} ${line.billingPeriod!.unit}.`, {
        product_price_id: line.productPriceId,
        billing_period_config: period,
      });
    }
  }
  return lines;
}

export function validateUpdate(state: SubscriptionState, changes: SubscriptionChanges, now: number): void {
  update(state, changes, now);
}

export interface Proration {
  /** Net amount to invoice now (> 0), or with `credit`, to give back (> 0). */
  amount: number;
  description: string;
  /** The tax treatment of the changed lines it nets (an invoiced proration). */
  tax?: LineTax | null;
  /** A credit's amount per tax treatment, at list prices (they sum to `amount`). */
  parts?: { amount: number; tax: LineTax | null }[];
}

/**
 * subscriptions/update. Line changes take effect at once. While ACTIVE, inside a billed period
 * [start, end), each changed line is prorated by the seconds left: a credit of the old line's
 * unused part and a charge of the new line's part, each rounded half up once per line. A
 * positive net total is invoiced at once (one line); a net credit is refunded against what
 * the period's invoices took (docs/subscriptions.md, "Proration"). Outside ACTIVE nothing is
 * prorated: the next invoice bills the new lines in full.
 */
export function update(
  state: SubscriptionState,
  changes: SubscriptionChanges,
  now: number,
): Step & { proration: Proration[]; credit: Proration | null } {
  requireTransition('update', state.status);
  if (changes.endTrial && state.status !== 'TRIALING') {
    throw new SubscriptionRefused('TRIAL_NOT_ACTIVE', `Only a TRIALING subscription can end its trial; this one is ${state.status}.`, { status: state.status });
  }
  if (changes.endTrial && state.cancellation) {
    throw new SubscriptionRefused('CANCELLATION_SCHEDULED', 'The subscription is scheduled to cancel when its trial ends: remove the cancellation before ending the trial.', {
      cancel_at: formatDateTime(new Date(state.cancellation.cancelAt)),
    });
  }
  const billed = state.lineItems.find((line) => line.billingType === 'RECURRING');
  const prorating = state.status === 'ACTIVE' && billed !== undefined && billed.periodEndAt !== null && billed.periodStartAt <= now && now < billed.periodEndAt;
  const lineChanges = !!(changes.addLines?.length || changes.updateLines?.length || changes.removeLineIds?.length);
  const periodOfNew = billed ? { start: billed.periodStartAt, end: billed.periodEndAt } : { start: now, end: null };
  const lineItems = lineChanges ? changedLines(state, changes, now, prorating ? { start: now, end: billed!.periodEndAt } : periodOfNew) : state.lineItems;

  const proration: Proration[] = [];
  let credit: Proration | null = null;
  if (prorating && lineChanges) {
    const start = billed!.periodStartAt;
    const end = billed!.periodEndAt!;
    const part = (line: Line | undefined) => (line && line.billingType === 'RECURRING' ? prorate(line.amount * line.quantity, end - now, end - start) : 0);
    const before = new Map(state.lineItems.map((line) => [line.id, line]));
    const after = new Map(lineItems.map((line) => [line.id, line]));
    // Netted per tax treatment: an old line's credit and a new line's charge offset each other
    // only when the same tax applies to both.
    const groups = new Map<string, { tax: LineTax | null; net: number; changed: number }>();
    const add = (line: Line | undefined, sign: 1 | -1, changed: boolean) => {
      if (!line) return;
      const tax = line.tax ?? null;
      const key = JSON.stringify(tax);
      const group = groups.get(key) ?? { tax, net: 0, changed: 0 };
      group.net += sign * part(line);
      if (changed && sign === 1) group.changed++;
      groups.set(key, group);
    };
    for (const id of new Set([...before.keys(), ...after.keys()])) {
      const old = before.get(id);
      const current = after.get(id);
      if (old === current) continue;
      add(old, -1, true);
      add(current, 1, true);
      if (!current) groups.get(JSON.stringify(old!.tax ?? null))!.changed++;
    }
    const span = `(${day(now)} – ${day(end)})`;
    const changes = (n: number) => `${n} line item change${n === 1 ? '' : 's'}`;
    const parts: { amount: number; tax: LineTax | null }[] = [];
    let creditedChanges = 0;
    for (const group of groups.values()) {
      if (group.net > 0) proration.push({ amount: group.net, description: `Proration of ${changes(group.changed)} ${span}`, tax: group.tax });
      if (group.net < 0) {
        parts.push({ amount: -group.net, tax: group.tax });
        creditedChanges += group.changed;
      }
    }
    if (parts.length > 0) {
      credit = { amount: parts.reduce((sum, p) => sum + p.amount, 0), description: `Proration credit of ${changes(creditedChanges)} ${span}`, parts };
    }
  }

  const next: Partial<SubscriptionState> = { lineItems };
  if (changes.paymentInstrumentId !== undefined) next.paymentInstrumentId = changes.paymentInstrumentId;
  if (changes.discounts !== undefined) next.discounts = changes.discounts;
  if (changes.description !== undefined) next.description = changes.description;
  if (changes.metadata !== undefined) next.metadata = changes.metadata;
  if (changes.merchantReference !== undefined) next.merchantReference = changes.merchantReference;
  if (changes.endTrial) {
    next.status = 'PENDING';
    next.trial = { ...state.trial!, endAt: now };
    next.nextCycleAt = now;
  }
  return { state: touch(state, now, next), events: ['SubscriptionUpdated'], proration, credit };
}

/** The invoice of a positive proration, one line per tax treatment, issued with the updated state (`version` makes its key unique). */
export function prorationInvoice(updated: SubscriptionState, proration: readonly Proration[]): PlannedInvoice {
  return {
    kind: 'proration',
    key: `proration/${updated.version}`,
    billingReason: 'SUBSCRIPTION_CYCLE',
    lines: proration.map((p) => ({ productPriceId: null, description: p.description, amount: p.amount, quantity: 1, tax: p.tax ?? null })),
  };
}

/**
 * What a proration credit gives back, from its list-price parts: each reduced as the newest
 * paid invoice's coupons reduced its lines (× (subtotal − discount) ÷ subtotal, rounded half
 * up), plus the tax an EXCLUSIVE part was charged on top (the invoice rule, lineTax); an
 * INCLUSIVE part's tax is already inside it. Exact integers throughout.
 */
export function creditToRefund(credit: Proration, invoice: { subtotal: number; discount: number }): number {
  if (invoice.subtotal <= 0) return 0;
  const subtotal = BigInt(invoice.subtotal);
  const kept = BigInt(Math.max(0, invoice.subtotal - invoice.discount));
  const parts = credit.parts ?? [{ amount: credit.amount, tax: null }];
  return parts.reduce((sum, part) => {
    const discounted = Number((2n * BigInt(part.amount) * kept + subtotal) / (2n * subtotal));
    return sum + discounted + (part.tax?.mode === 'EXCLUSIVE' ? lineTax(discounted, part.tax) : 0);
  }, 0);
}

/* ---------- restore (v1) ---------- */

export interface RestoreRequest {
  /** The new ends_at; null: open-ended. */
  expiresAt: number | null;
  /** A coupon to add to the discounts (ignored when already there). */
  discount: Discount | null;
}

/**
 * CANCELLED → ACTIVE. Billing resumes at the next boundary from the anchor after `now`: the
 * rest of the current period and the time it was cancelled are never charged.
 */
export function restore(state: SubscriptionState, request: RestoreRequest, now: number): Step {
  requireTransition('restore', state.status);
  const discounts =
    request.discount && !state.discounts.some((d) => d.coupon_id === request.discount!.coupon_id) ? [...state.discounts, request.discount] : state.discounts;
  return {
    state: touch(state, now, { ...resumedBilling(state, now), status: 'ACTIVE', cancellation: null, discounts, endsAt: request.expiresAt, startedAt: state.startedAt ?? now }),
    events: ['SubscriptionActivated'],
  };
}

/**
 * An UNPAID subscription whose debt was settled by hand (docs/subscriptions.md): ACTIVE again.
 * The paid invoice's period still running goes on as billed; one already over resumes billing
 * at the next boundary, with nothing charged for the time it was unpaid, as a restore does.
 */
export function reactivate(state: SubscriptionState, now: number): Step {
  requireTransition('reactivate', state.status);
  const resumed = state.nextCycleAt !== null && state.nextCycleAt > now ? {} : resumedBilling(state, now);
  return { state: touch(state, now, { ...resumed, status: 'ACTIVE' }), events: ['SubscriptionActivated'] };
}

/** Billing that starts again now: the next boundary from the anchor, the recurring lines' period up to it. */
function resumedBilling(state: SubscriptionState, now: number): Pick<SubscriptionState, 'anchorAt' | 'nextCycleAt' | 'lineItems'> {
  const anchor = state.anchorAt ?? now;
  const nextCycleAt = nextBoundaryAfter(anchor, recurringPeriod(state), now);
  const lineItems = state.lineItems.map((line) =>
    line.billingType === 'RECURRING' ? { ...line, periodStartAt: now, periodEndAt: nextCycleAt, updatedAt: now } : line,
  );
  return { anchorAt: anchor, nextCycleAt, lineItems };
}

/** The end of the first billed period: the first boundary from the anchor after billing starts (the anchor may lie on either side). */
export function firstPeriodEnd(anchor: number, period: BillingPeriod, billingStart: number): number {
  return nextBoundaryAfter(anchor, period, billingStart);
}
