import { formatDateTime } from '../datetime';
import { requireTransition, SubscriptionRefused } from '../subscription-status';
import { requireLineCount, requireOneBillingPeriod } from './lines';
import { isPeriodic } from '../billing-types';
import type { ProrationCreditDestination } from '../balance-transactions';
import { prorateLineChanges, type Proration } from './proration';
import { periodLine, touch, type Discount, type Line, type LineTax, type Step, type SubscriptionState } from './state';
import type { Metadata } from '../metadata';

/** What a line takes from the product price it bills. */
export type PriceChange = Pick<Line, 'productId' | 'productPriceId' | 'productName' | 'productDescription' | 'billingType' | 'amount' | 'billingPeriod'>;

/** A line the API resolved from a product price. */
export type NewLine = PriceChange & Pick<Line, 'id' | 'quantity'> & { tax: LineTax | null };

export interface SubscriptionChanges {
  paymentInstrumentId?: string;
  discounts?: Discount[];
  description?: string | null;
  metadata?: Metadata | null;
  merchantReference?: string | null;
  endTrial?: boolean;
  addLines?: NewLine[];
  /** `tax`: an object sets it, null removes it, absent keeps it. */
  updateLines?: { id: string; quantity?: number; price?: PriceChange; tax?: LineTax | null }[];
  removeLineIds?: string[];
  /** Where a proration credit of this change goes, resolved by the service (the request, else the account's setting). */
  prorationCredit?: ProrationCreditDestination;
}

function refuseUnknownLine(code: string, message: string, context: Record<string, unknown>): never {
  throw new SubscriptionRefused(code, message, context);
}

/**
 * A usage line that has measured anything stays as it is until the subscription ends: removing
 * or repricing it would leave what it measured so far unbilled (docs/usage.md, "Subscriptions").
 */
function refuseUsageLineChanges(state: SubscriptionState, changes: SubscriptionChanges): void {
  const usage = new Map(state.lineItems.filter((line) => line.billingType === 'USAGE').map((line) => [line.id, line]));
  for (const [index, id] of (changes.removeLineIds ?? []).entries()) {
    if (usage.get(id)?.startedAt != null) {
      refuseUnknownLine('USAGE_LINE_ITEM_LOCKED', `Line item ${id} bills usage already measured: it stays until the subscription ends.`, { field: `line_items.remove[${index}]`, id });
    }
  }
  for (const [index, change] of (changes.updateLines ?? []).entries()) {
    if (usage.has(change.id) && (change.price !== undefined || change.quantity !== undefined)) {
      refuseUnknownLine('USAGE_LINE_ITEM_LOCKED', `Line item ${change.id} bills usage: its price and quantity do not change while the subscription lasts.`, {
        field: `line_items.update[${index}]`,
        id: change.id,
      });
    }
  }
}

/** The lines after the requested changes, checked: ids exist, one billing period, at least one RECURRING. */
function changedLines(state: SubscriptionState, changes: SubscriptionChanges, now: number, periodOfNew: { start: number; end: number | null }): Line[] {
  const known = new Set(state.lineItems.map((line) => line.id));
  for (const [index, id] of (changes.removeLineIds ?? []).entries()) {
    if (!known.has(id)) refuseUnknownLine('LINE_ITEM_NOT_FOUND', `Line item ${id} is not on this subscription.`, { field: `line_items.remove[${index}]`, id });
  }
  for (const [index, change] of (changes.updateLines ?? []).entries()) {
    if (!known.has(change.id)) refuseUnknownLine('LINE_ITEM_NOT_FOUND', `Line item ${change.id} is not on this subscription.`, { field: `line_items.update[${index}].id`, id: change.id });
    if ((changes.removeLineIds ?? []).includes(change.id)) {
      refuseUnknownLine('LINE_ITEM_NOT_FOUND', `Line item ${change.id} is both updated and removed.`, { field: `line_items.update[${index}].id`, id: change.id });
    }
  }
  refuseUsageLineChanges(state, changes);
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
      // A usage line added inside a period measures from now: the period's invoice bills [now, end).
      startedAt: line.billingType === 'USAGE' && state.status === 'ACTIVE' && periodOfNew.end !== null && periodOfNew.start <= now ? now : null,
      periodStartAt: line.billingType === 'RECURRING' ? periodOfNew.start : now,
      periodEndAt: isPeriodic(line.billingType) ? periodOfNew.end : null,
      billedAt: null,
      createdAt: now,
      updatedAt: now,
    }),
  );
  const lines = [...kept, ...added];
  requireLineCount(lines.length);
  requireOneBillingPeriod(lines, periodLine(state)?.billingPeriod);
  return lines;
}

export function validateUpdate(state: SubscriptionState, changes: SubscriptionChanges, now: number): void {
  update(state, changes, now);
}

/**
 * subscriptions/update. Line changes take effect at once. While ACTIVE, inside a billed period
 * [start, end), each changed line is prorated by the seconds left: a credit of the old line's
 * unused part and a charge of the new line's part, each rounded half up once per line. A
 * positive net total is invoiced at once (one line); a net credit goes where the change says:
 * to the customer balance, or refunded against what the period's invoices took
 * (docs/subscriptions.md, "Proration"). Outside ACTIVE nothing is
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
  const billed = periodLine(state);
  const prorating = state.status === 'ACTIVE' && billed !== undefined && billed.periodEndAt !== null && billed.periodStartAt <= now && now < billed.periodEndAt;
  const lineChanges = !!(changes.addLines?.length || changes.updateLines?.length || changes.removeLineIds?.length);
  const periodOfNew = billed ? { start: billed.periodStartAt, end: billed.periodEndAt } : { start: now, end: null };
  const lineItems = lineChanges ? changedLines(state, changes, now, prorating ? { start: now, end: billed!.periodEndAt } : periodOfNew) : state.lineItems;

  const { proration, credit } =
    prorating && lineChanges ? prorateLineChanges(state.lineItems, lineItems, { start: billed!.periodStartAt, end: billed!.periodEndAt! }, now) : { proration: [], credit: null };

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
  const destined = credit && changes.prorationCredit ? { ...credit, to: changes.prorationCredit, at: now } : credit;
  return { state: touch(state, now, next), events: ['SubscriptionUpdated'], proration, credit: destined };
}
