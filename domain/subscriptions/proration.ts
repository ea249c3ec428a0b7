import { prorate } from '../billing-periods';
import { allocateProportionally, taxedAmount } from '../invoice-amounts';
import { divideHalfUp } from '../rounding';
import type { PlannedInvoice } from './billing';
import type { ProrationCreditDestination } from '../balance-transactions';
import { day, type Line, type LineTax, type SubscriptionState } from './state';

export interface Proration {
  /** Net amount to invoice now (> 0), or with `credit`, to give back (> 0). */
  amount: number;
  description: string;
  /** The tax treatment of the changed lines it nets (an invoiced proration). */
  tax?: LineTax | null;
  /** A credit's amount per tax treatment, at list prices (they sum to `amount`). */
  parts?: { amount: number; tax: LineTax | null }[];
  /** A credit's destination; credits made before the customer balance existed have none and are refunded. */
  to?: ProrationCreditDestination;
  /** When the change that made the credit was applied (workflow time): names its credit invoice. */
  at?: number;
}

/**
 * The proration of line changes inside the billed period [period.start, period.end), at `now`:
 * each changed line's part for the seconds left (prorate: rounded half up once per line), the
 * old line's as a credit and the new line's as a charge, netted per tax treatment. A positive
 * net is a proration to invoice; the negative nets make one credit.
 */
export function prorateLineChanges(
  before: readonly Line[],
  after: readonly Line[],
  period: { start: number; end: number },
  now: number,
): { proration: Proration[]; credit: Proration | null } {
  const { start, end } = period;
  const part = (line: Line | undefined) => (line && line.billingType === 'RECURRING' ? prorate(line.amount * line.quantity, end - now, end - start) : 0);
  const beforeById = new Map(before.map((line) => [line.id, line]));
  const afterById = new Map(after.map((line) => [line.id, line]));
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
  for (const id of new Set([...beforeById.keys(), ...afterById.keys()])) {
    const old = beforeById.get(id);
    const current = afterById.get(id);
    if (old === current) continue;
    add(old, -1, true);
    add(current, 1, true);
    if (!current) groups.get(JSON.stringify(old!.tax ?? null))!.changed++;
  }
  const span = `(${day(now)} – ${day(end)})`;
  const changes = (n: number) => `${n} line item change${n === 1 ? '' : 's'}`;
  const proration: Proration[] = [];
  const parts: { amount: number; tax: LineTax | null }[] = [];
  let creditedChanges = 0;
  for (const group of groups.values()) {
    if (group.net > 0) proration.push({ amount: group.net, description: `Proration of ${changes(group.changed)} ${span}`, tax: group.tax });
    if (group.net < 0) {
      parts.push({ amount: -group.net, tax: group.tax });
      creditedChanges += group.changed;
    }
  }
  const credit = parts.length > 0 ? { amount: parts.reduce((sum, p) => sum + p.amount, 0), description: `Proration credit of ${changes(creditedChanges)} ${span}`, parts } : null;
  return { proration, credit };
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
 * up), plus the tax an EXCLUSIVE part was charged on top (the invoice rule, taxedAmount); an
 * INCLUSIVE part's tax is already inside it. Exact integers throughout.
 */
export function creditToRefund(credit: Proration, invoice: { subtotal: number; discount: number }): number {
  return creditPartsTotal(discountedCreditParts(credit, invoice));
}

export type CreditPart = { amount: number; tax: LineTax | null };

/** What parts credit in all, as a credit invoice of one line per part totals (in magnitude): each part plus the tax an EXCLUSIVE one adds. */
export function creditPartsTotal(parts: readonly CreditPart[]): number {
  return parts.reduce((sum, part) => sum + taxedAmount(part.amount, part.tax).total, 0);
}

/**
 * Parts reduced so that what they credit in all (creditPartsTotal) is at most `limit`, what the
 * paid invoices have left to give back: unchanged when they fit; otherwise their sum before tax
 * is cut to its share of the limit, spread over the parts in proportion (largest remainder), then
 * lowered one minor unit at a time while the tax rounding still takes the total over the limit.
 * The total is then the limit itself, or as close below it as the tax rounding allows.
 */
export function capCreditParts(parts: readonly CreditPart[], limit: number): CreditPart[] {
  const total = creditPartsTotal(parts);
  if (total <= limit) return [...parts];
  const weights = parts.map((part) => part.amount);
  const sum = weights.reduce((a, b) => a + b, 0);
  const spread = (amount: number) => allocateProportionally(amount, weights).map((share, i) => ({ amount: share, tax: parts[i]!.tax }));
  // One unit above the exact share, so the walk down meets the largest sum that fits.
  let amount = Math.min(sum, Number(divideHalfUp(BigInt(sum) * BigInt(Math.max(0, limit)), BigInt(total))) + 1);
  while (amount > 0 && creditPartsTotal(spread(amount)) > limit) amount--;
  return spread(amount);
}

/** A credit's parts reduced as the newest paid invoice's coupons reduced its lines, before tax. */
export function discountedCreditParts(credit: Proration, invoice: { subtotal: number; discount: number }): CreditPart[] {
  if (invoice.subtotal <= 0) return [];
  const subtotal = BigInt(invoice.subtotal);
  const kept = BigInt(Math.max(0, invoice.subtotal - invoice.discount));
  const parts = credit.parts ?? [{ amount: credit.amount, tax: null }];
  return parts.map((part) => ({ amount: Number(divideHalfUp(BigInt(part.amount) * kept, subtotal)), tax: part.tax }));
}
