/**
 * numerator / denominator rounded half up, exactly: every money rule that divides (discounts,
 * tax, proration) rounds this way, in BigInt so no amount ever passes through floating point.
 * Non-negative operands, denominator > 0.
 */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}
