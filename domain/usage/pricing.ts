import { MAX_INVOICE_AMOUNT } from '../invoice-amounts';
import { DECIMAL_ONE, formatDecimal, formatProduct, multiplyExact, parseDecimal, roundProductHalfUp, scaleInteger } from './decimal';

/**
 * Usage prices (docs/usage.md, "Usage prices"): what a quantity of a meter costs under a price's
 * model. Quantities and unit prices are exact decimals (decimal.ts); every tier's charge is kept
 * exact at 10^-24 and the line's total is rounded half up once, the rule of domain/rounding.ts.
 */

export const USAGE_MODEL_KINDS = ['PER_UNIT', 'PACKAGE', 'GRADUATED', 'VOLUME'] as const;
export type UsageModelKind = (typeof USAGE_MODEL_KINDS)[number];

/**
 * One tier: the units above the previous tier's `up_to` up to this one's, inclusive; null is the
 * last, open-ended. A type rather than an interface so a model is a JSON value as Prisma stores it.
 */
export type UsageTier = {
  up_to: number | null;
  /** Minor units per unit, a decimal string with at most 12 fractional digits. */
  unit_amount_decimal: string;
  /** Minor units, charged once when any unit falls in the tier (GRADUATED) or the total lands in it (VOLUME). */
  flat_amount: number;
};

/** A usage price's model, as the API shows it and product_prices.usage_model stores it. */
export type UsageModel =
  | { model: 'PER_UNIT'; unit_amount_decimal: string }
  | { model: 'PACKAGE'; package_size: number; package_amount: number }
  | { model: 'GRADUATED' | 'VOLUME'; tiers: UsageTier[] };

export const MAX_USAGE_TIERS = 10;
/** Tier bounds and package sizes are whole units within the 15 integer digits of a decimal. */
export const MAX_USAGE_UNITS = 999_999_999_999_999;
/** A usage line becomes an invoice line: its amount must fit the invoice's 32-bit columns. */
export const MAX_USAGE_LINE_AMOUNT = MAX_INVOICE_AMOUNT;

/**
 * What one tier charged. PER_UNIT and PACKAGE give one entry (tier 1, from 0, open-ended); for
 * PACKAGE, `unit_amount_decimal` is the price of one package and the charge is `packages` × it.
 */
export interface TierCharge {
  /** 1-based. */
  tier: number;
  /** Decimal: the tier's units are those above this. */
  from: string;
  /** Decimal, inclusive; null: open-ended. */
  up_to: string | null;
  /** Decimal: the units this tier charged. */
  quantity: string;
  unit_amount_decimal: string;
  /** The flat amount charged: the tier's own, or 0 when no unit fell in it. */
  flat_amount: number;
  /** Exact minor units, before the line is rounded. */
  amount_decimal: string;
  /** PACKAGE only: the packages charged, ⌈quantity / package_size⌉. */
  packages?: number;
}

export interface UsageCharge {
  /** The line's total in minor units: the sum of the tiers' exact amounts, rounded half up once. */
  amount: number;
  tiers: TierCharge[];
}

/** A usage line that would not fit an invoice line: billing refuses it rather than wrap. */
export class UsageChargeTooLarge extends Error {
  constructor(
    message: string,
    readonly context: { amount_decimal: string; max_amount: number; packages?: string },
  ) {
    super(message);
    this.name = 'UsageChargeTooLarge';
  }
}

const PRODUCT_ONE = DECIMAL_ONE * DECIMAL_ONE;

function unitPrice(text: string): bigint {
  const price = parseDecimal(text);
  if (price === null || price < 0n) throw new RangeError(`Not a unit amount: ${text}.`);
  return price;
}

interface Charged {
  tiers: TierCharge[];
  /** At 10^-24. */
  exact: bigint;
}

function charge(tier: number, from: bigint, upTo: bigint | null, units: bigint, unitAmount: string, flatAmount: number): { entry: TierCharge; exact: bigint } {
  const flat = units > 0n ? flatAmount : 0;
  const exact = multiplyExact(units, unitPrice(unitAmount)) + BigInt(flat) * PRODUCT_ONE;
  return {
    entry: {
      tier,
      from: formatDecimal(from),
      up_to: upTo === null ? null : formatDecimal(upTo),
      quantity: formatDecimal(units),
      unit_amount_decimal: unitAmount,
      flat_amount: flat,
      amount_decimal: formatProduct(exact),
    },
    exact,
  };
}

const upperOf = (tier: UsageTier) => (tier.up_to === null ? null : scaleInteger(tier.up_to));

/** Every tier from the first to the one the total lands in, each charging the units inside it. */
function graduated(tiers: readonly UsageTier[], quantity: bigint): Charged {
  const charged: Charged = { tiers: [], exact: 0n };
  let lower = 0n;
  for (const [index, tier] of tiers.entries()) {
    const upper = upperOf(tier);
    const top = upper === null || quantity < upper ? quantity : upper;
    const { entry, exact } = charge(index + 1, lower, upper, top - lower, tier.unit_amount_decimal, tier.flat_amount);
    charged.tiers.push(entry);
    charged.exact += exact;
    if (upper === null || quantity <= upper) break;
    lower = upper;
  }
  return charged;
}

/** Every unit at the price of the tier the total lands in (0 lands in the first). */
function volume(tiers: readonly UsageTier[], quantity: bigint): Charged {
  let lower = 0n;
  for (const [index, tier] of tiers.entries()) {
    const upper = upperOf(tier);
    if (upper === null || quantity <= upper) {
      const { entry, exact } = charge(index + 1, lower, upper, quantity, tier.unit_amount_decimal, tier.flat_amount);
      return { tiers: [entry], exact };
    }
    lower = upper;
  }
  throw new RangeError('The last tier must be open-ended (up_to null).');
}

/**
 * The charge for `quantity` (scaled, decimal.ts) under `model`. No units, no charge: a quantity
 * of 0 (or below, which a MAX or LATEST meter can measure) bills 0, flat amounts included.
 * Throws UsageChargeTooLarge when the rounded amount exceeds MAX_USAGE_LINE_AMOUNT.
 */
export function priceUsage(model: UsageModel, quantity: bigint): UsageCharge {
  const units = quantity > 0n ? quantity : 0n;
  let charged: Charged;
  switch (model.model) {
    case 'PER_UNIT': {
      const { entry, exact } = charge(1, 0n, null, units, model.unit_amount_decimal, 0);
      charged = { tiers: [entry], exact };
      break;
    }
    case 'PACKAGE': {
      const size = scaleInteger(model.package_size);
      const packages = (units + size - 1n) / size;
      const exact = packages * BigInt(model.package_amount) * PRODUCT_ONE;
      if (packages > BigInt(Number.MAX_SAFE_INTEGER)) {
        throw new UsageChargeTooLarge(`${packages} packages are more than a line can count.`, {
          amount_decimal: formatProduct(exact),
          max_amount: MAX_USAGE_LINE_AMOUNT,
          packages: packages.toString(),
        });
      }
      const entry: TierCharge = {
        tier: 1,
        from: '0',
        up_to: null,
        quantity: formatDecimal(units),
        unit_amount_decimal: String(model.package_amount),
        flat_amount: 0,
        amount_decimal: formatProduct(exact),
        packages: Number(packages),
      };
      charged = { tiers: [entry], exact };
      break;
    }
    case 'GRADUATED':
      charged = graduated(model.tiers, units);
      break;
    case 'VOLUME':
      charged = volume(model.tiers, units);
      break;
  }
  const amount = roundProductHalfUp(charged.exact);
  if (amount > BigInt(MAX_USAGE_LINE_AMOUNT)) {
    throw new UsageChargeTooLarge(`The usage line would amount to ${formatProduct(charged.exact)} minor units, more than ${MAX_USAGE_LINE_AMOUNT}.`, {
      amount_decimal: formatProduct(charged.exact),
      max_amount: MAX_USAGE_LINE_AMOUNT,
    });
  }
  return { amount: Number(amount), tiers: charged.tiers };
}
