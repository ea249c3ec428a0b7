/**
 * What a line of a settlement can be, and how it compares with our records (docs/settlements.md,
 * "Source of truth and reconciliation"). The sandbox's books hold charges and refunds only; a
 * Stripe payout also holds Stripe's own fees and adjustments (disputes, reserves, ...).
 */
export type SettlementLineKind = 'CHARGE' | 'REFUND' | 'FEE' | 'ADJUSTMENT';

export type Reconciliation =
  | 'MATCHED'
  | 'UNKNOWN_PAYMENT'
  | 'PAYMENT_MISMATCH'
  | 'UNKNOWN_REFUND'
  | 'REFUND_MISMATCH'
  /** A fee or adjustment of the provider's own: nothing of ours says what it should be. */
  | 'PROVIDER_ONLY';

/** The four parts of a line or a settlement, signed minor units: net = gross − refunded − fee + adjustment. */
export interface SettlementParts {
  grossAmount: number;
  refundedAmount: number;
  feeAmount: number;
  adjustmentAmount: number;
}

export function netOf(parts: SettlementParts): number {
  return parts.grossAmount - parts.refundedAmount - parts.feeAmount + parts.adjustmentAmount;
}
