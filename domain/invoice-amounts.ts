import { divideHalfUp } from './rounding';

/**
 * Invoice arithmetic, pure and in integers only (docs/invoices.md, "Amounts and rounding").
 *
 * Rates and percentages are decimals with at most four places (7.5, 19, 12.3456). They are
 * scaled by 10^4 into integers and every product is taken in BigInt, so no value ever passes
 * through a binary fraction: 7.5 % of 1999 is `1999 × 75000 / 1000000` exactly, then rounded.
 *
 * 1. Line subtotal = unit amount × quantity.
 * 2. Invoice discount: the discounts apply to the sum of subtotals, every PERCENTAGE first (each
 *    on the running amount left by the previous one, in the order given, rounded half up), then
 *    every AMOUNT (in the order given). The running amount never goes below zero, so an AMOUNT
 *    larger than what is left takes only what is left.
 * 3. The invoice discount is spread over the lines in proportion to their subtotals with the
 *    largest-remainder method (ties go to the earlier line), so line discounts sum to it exactly
 *    and no line's discount exceeds its subtotal.
 * 4. Per line, taxable = subtotal − discount, then
 *    EXCLUSIVE: tax = round half up(taxable × rate / 100), added on top;
 *    INCLUSIVE: tax = taxable − round half up(taxable × 100 / (100 + rate)), already inside.
 * 5. Line total = taxable + exclusive tax. The invoice's subtotal, discount, taxable, tax and
 *    total are the sums of its lines, so lines always add up to the invoice.
 */

/** The invoice columns are 32-bit: the total and the sum of subtotals must fit. */
export const MAX_INVOICE_AMOUNT = 2_147_483_647;

export const RATE_SCALE = 10_000n;
const HUNDRED_SCALED = 100n * RATE_SCALE;

/** EXCLUSIVE: tax added on top of the amount. INCLUSIVE: already inside it. */
export const TAX_MODES = ['EXCLUSIVE', 'INCLUSIVE'] as const;
export type TaxMode = (typeof TAX_MODES)[number];
export type DiscountType = 'PERCENTAGE' | 'AMOUNT';

/** A decimal with at most four places, as a number (7.5) or a string ("7.5", as Prisma's Decimal prints). */
export type Decimal4 = number | string;

export interface LineInput {
  /** Unit amount in minor units, ≥ 0. */
  unitAmount: number;
  /** ≥ 1. */
  quantity: number;
  tax?: { mode: TaxMode; rate: Decimal4 } | null;
}

export interface DiscountInput {
  type: DiscountType;
  /** Percent (0 < value ≤ 100) for PERCENTAGE, minor units (a positive integer) for AMOUNT. */
  value: Decimal4;
}

export interface AmountDetails {
  subtotal: number;
  discount: number;
  taxable: number;
  tax: number;
}

export interface LineAmounts extends AmountDetails {
  /** taxable + exclusive tax: what this line adds to the invoice total. */
  total: number;
}

export interface InvoiceAmounts {
  lines: LineAmounts[];
  amountDetails: AmountDetails;
  total: number;
}

const DECIMAL4 = /^(\d+)(?:\.(\d{1,4}))?$/;

/** "7.5" → 75000n. Refuses anything that is not a non-negative decimal with at most four places. */
export function scaleDecimal(value: Decimal4): bigint {
  // String(number) is the shortest exact decimal; exponent forms (1e-7) fail the pattern.
  const text = typeof value === 'number' ? String(value) : value.trim();
  const match = DECIMAL4.exec(text.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, ''));
  if (!match) throw new RangeError(`Expected a non-negative decimal with at most four places, got ${String(value)}.`);
  return BigInt(match[1]!) * RATE_SCALE + BigInt((match[2] ?? '').padEnd(4, '0'));
}

/** True for a number with at most four decimal places (what the API accepts as a rate or percentage). */
export function hasAtMostFourDecimals(value: number): boolean {
  try {
    scaleDecimal(value);
    return true;
  } catch {
    return false;
  }
}

/** The invoice-level discount on `base` minor units, discounts stacked as in rule 2. */
export function invoiceDiscount(base: number, discounts: readonly DiscountInput[]): number {
  let running = BigInt(base);
  const ordered = [...discounts.filter((d) => d.type === 'PERCENTAGE'), ...discounts.filter((d) => d.type === 'AMOUNT')];
  for (const discount of ordered) {
    const scaled = scaleDecimal(discount.value);
    const off = discount.type === 'PERCENTAGE' ? divideHalfUp(running * scaled, HUNDRED_SCALED) : scaled / RATE_SCALE;
    running -= off > running ? running : off;
  }
  return base - Number(running);
}

/**
 * Splits `amount` over `weights` in proportion, largest remainder first (ties: earlier index),
 * so the parts sum to `amount` exactly. With all weights zero every part is zero.
 */
export function allocateProportionally(amount: number, weights: readonly number[]): number[] {
  const total = weights.reduce((sum, weight) => sum + BigInt(weight), 0n);
  if (total === 0n) return weights.map(() => 0);
  const whole = BigInt(amount);
  const parts = weights.map((weight) => (whole * BigInt(weight)) / total);
  const remainders = weights.map((weight, index) => ({ index, remainder: (whole * BigInt(weight)) % total }));
  let left = whole - parts.reduce((sum, part) => sum + part, 0n);
  remainders.sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of remainders) {
    if (left === 0n) break;
    parts[index]! += 1n;
    left -= 1n;
  }
  return parts.map(Number);
}

/** Tax of one line on its taxable amount (rule 4). */
export function lineTax(taxable: number, tax: LineInput['tax']): number {
  if (!tax) return 0;
  // A credit line (a negative amount) is taxed as the mirror of its magnitude: the same rounding
  // whichever way the money goes.
  if (taxable < 0) return -lineTax(-taxable, tax);
  const rate = scaleDecimal(tax.rate);
  const amount = BigInt(taxable);
  if (tax.mode === 'EXCLUSIVE') return Number(divideHalfUp(amount * rate, HUNDRED_SCALED));
  return Number(amount - divideHalfUp(amount * HUNDRED_SCALED, HUNDRED_SCALED + rate));
}

/**
 * Rules 4 and 5 for one taxable amount: its tax and what it adds to a total. Invoice lines and
 * credit note lines (domain/credit-note-amounts.ts) both go through it, so a credit is taxed
 * exactly as the line it credits was.
 */
export function taxedAmount(taxable: number, tax: LineInput['tax']): { taxable: number; tax: number; total: number } {
  const amount = lineTax(taxable, tax);
  return { taxable, tax: amount, total: taxable + (tax?.mode === 'EXCLUSIVE' ? amount : 0) };
}

export function computeInvoiceAmounts(lines: readonly LineInput[], discounts: readonly DiscountInput[]): InvoiceAmounts {
  const subtotals = lines.map((line) => Number(BigInt(line.unitAmount) * BigInt(line.quantity)));
  const base = subtotals.reduce((sum, subtotal) => sum + subtotal, 0);
  const lineDiscounts = allocateProportionally(invoiceDiscount(base, discounts), subtotals);
  const lineAmounts = lines.map((line, index): LineAmounts => {
    const subtotal = subtotals[index]!;
    const discount = lineDiscounts[index]!;
    return { subtotal, discount, ...taxedAmount(subtotal - discount, line.tax) };
  });
  const sum = (key: keyof LineAmounts) => lineAmounts.reduce((total, line) => total + line[key], 0);
  return {
    lines: lineAmounts,
    amountDetails: { subtotal: sum('subtotal'), discount: sum('discount'), taxable: sum('taxable'), tax: sum('tax') },
    total: sum('total'),
  };
}
