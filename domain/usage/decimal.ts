/**
 * Usage quantities and fractional unit prices as exact decimals (docs/usage.md, "Numbers"):
 * at most 15 integer and 12 fractional digits, held as bigint counts of 10^-12. Nothing here
 * rounds; money is rounded once, half up, where a line's total is made (pricing.ts).
 */

export const DECIMAL_SCALE = 12;
const ONE = 10n ** BigInt(DECIMAL_SCALE);
const DECIMAL = /^(-?)(\d{1,15})(?:\.(\d{1,12}))?$/;

/** A decimal string or a JS number as units of 10^-12; null when it is not such a number. */
export function parseDecimal(value: unknown): bigint | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = positional(String(value));
  } else if (typeof value === 'string') {
    text = value;
  } else {
    return null;
  }
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const scaled = BigInt(match[2]!) * ONE + BigInt((match[3] ?? '').padEnd(DECIMAL_SCALE, '0'));
  return match[1] ? -scaled : scaled;
}

/**
 * A JS number's shortest text without its exponent (`1e-7` → `0.0000001`, `1.5e+21` →
 * `1500000000000000000000`), digit for digit: the limits on digits then apply as to any text.
 */
function positional(text: string): string {
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const digits = match[2]! + (match[3] ?? '');
  const point = 1 + Number(match[4]);
  if (point <= 0) return `${match[1]}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${match[1]}${digits}${'0'.repeat(point - digits.length)}`;
  return `${match[1]}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** The shortest decimal string of a scaled value: no trailing zeros, no exponent. */
export function formatDecimal(scaled: bigint): string {
  return formatScaled(scaled, DECIMAL_SCALE);
}

/** The shortest decimal string of a product (10^-24), exactly: how a line's unrounded amount is shown. */
export function formatProduct(product: bigint): string {
  return formatScaled(product, 2 * DECIMAL_SCALE);
}

function formatScaled(scaled: bigint, digits: number): string {
  const unit = 10n ** BigInt(digits);
  const negative = scaled < 0n;
  const magnitude = negative ? -scaled : scaled;
  const whole = magnitude / unit;
  const fraction = (magnitude % unit).toString().padStart(digits, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export function scaleInteger(value: bigint | number): bigint {
  return BigInt(value) * ONE;
}

/** a × b of two scaled values, exactly, at the square of the scale (10^-24). */
export function multiplyExact(a: bigint, b: bigint): bigint {
  return a * b;
}

/** A value at 10^-24 (a product) rounded half up (away from zero at .5) to whole units. */
export function roundProductHalfUp(product: bigint): bigint {
  const unit = ONE * ONE;
  const negative = product < 0n;
  const magnitude = negative ? -product : product;
  const rounded = (magnitude + unit / 2n) / unit;
  return negative ? -rounded : rounded;
}

/** The smallest whole number ≥ a scaled value. */
export function ceilToInteger(scaled: bigint): bigint {
  if (scaled <= 0n) return -(-scaled / ONE);
  return (scaled + ONE - 1n) / ONE;
}

export const DECIMAL_ONE = ONE;
