import type { Reconciliation } from './settlement-lines';
import type { PayoutLine } from './stripe-payout-lines';

/**
 * A Stripe payout's lines against our records (docs/settlements.md, "Settlements from Stripe"):
 * a line names our payment through the PaymentIntent it records as its charge, and our refund
 * through Stripe's Refund id. What nothing of ours names stays in the payout, with empty ids:
 * listed, never dropped, never attributed by guessing.
 */

/** Our payment a line names, with the legal entity its channel names (null: none). */
export interface OurPayment {
  id: string;
  invoiceId: string | null;
  channelId: string;
  status: string;
  amount: number;
  currency: string;
  fee: number | null;
  channelLegalEntityId: string | null;
}

export interface OurRefund {
  id: string;
  paymentId: string;
  amount: number;
  status: string;
}

export interface ReconciledLine extends PayoutLine {
  paymentId: string | null;
  invoiceId: string | null;
  channelId: string | null;
  refundId: string | null;
  /** The legal entity the line's payment belongs to; null when it names no payment, or the payment none. */
  legalEntityId: string | null;
  reconciliation: Reconciliation;
}

/**
 * A charge matches when our payment SUCCEEDED for what Stripe charged, in its currency; the fee
 * is compared only when the charge settled in its own currency (else Stripe's fee is in another
 * currency than the one our payment was charged in). A refund matches when ours SUCCEEDED (or,
 * for a refund given back as failed, FAILED) for the same amount and payment.
 */
function reconciliationOf(line: PayoutLine, payment: OurPayment | undefined, refund: OurRefund | undefined): Reconciliation {
  if (line.kind === 'FEE' || line.kind === 'ADJUSTMENT') return 'PROVIDER_ONLY';
  if (!payment) return 'UNKNOWN_PAYMENT';
  if (line.kind === 'CHARGE') {
    const charged = line.original;
    const feeDiffers = charged?.currency === line.currency && payment.fee !== line.feeAmount;
    return payment.status !== 'SUCCEEDED' || !charged || payment.amount !== charged.amount || payment.currency !== charged.currency || feeDiffers
      ? 'PAYMENT_MISMATCH'
      : 'MATCHED';
  }
  if (!refund) return 'UNKNOWN_REFUND';
  const expected = line.reversesRefund ? 'FAILED' : 'SUCCEEDED';
  return refund.status !== expected || refund.paymentId !== payment.id || refund.amount !== line.original?.amount ? 'REFUND_MISMATCH' : 'MATCHED';
}

/**
 * The line with our ids and how it compares. `onlyLegalEntity` is the account's legal entity when
 * it has exactly one: a channel naming none falls back to it, as for the sandbox.
 */
export function reconcileLine(line: PayoutLine, ours: { payment?: OurPayment; refund?: OurRefund }, onlyLegalEntity: string | null): ReconciledLine {
  const { payment, refund } = ours;
  return {
    ...line,
    paymentId: payment?.id ?? null,
    invoiceId: payment?.invoiceId ?? null,
    channelId: payment?.channelId ?? null,
    refundId: refund?.id ?? null,
    legalEntityId: payment ? (payment.channelLegalEntityId ?? onlyLegalEntity) : null,
    reconciliation: reconciliationOf(line, payment, refund),
  };
}

export type PayoutAttribution =
  | { legalEntityId: string }
  /**
   * NONE: a line's payment has no legal entity, or no line names a payment and the account has
   * not exactly one; SEVERAL: the lines' payments belong to different legal entities.
   */
  | { legalEntityId: null; reason: 'NONE' | 'SEVERAL' };

/**
 * The legal entity that receives the payout: one bank transfer reaches one company. It is the one
 * every line naming a payment of ours belongs to; a payout naming none belongs to the account's
 * only legal entity. The lines naming no payment (Stripe's fees, charges not ours) go with the
 * payout they were paid out in.
 */
export function payoutLegalEntity(lines: Iterable<Pick<ReconciledLine, 'paymentId' | 'legalEntityId'>>, onlyLegalEntity: string | null): PayoutAttribution {
  const entities = new Set<string>();
  let named = false;
  for (const line of lines) {
    if (line.paymentId === null) continue;
    named = true;
    if (line.legalEntityId === null) return { legalEntityId: null, reason: 'NONE' };
    entities.add(line.legalEntityId);
  }
  if (entities.size > 1) return { legalEntityId: null, reason: 'SEVERAL' };
  const [entity] = entities;
  if (entity) return { legalEntityId: entity };
  return !named && onlyLegalEntity ? { legalEntityId: onlyLegalEntity } : { legalEntityId: null, reason: 'NONE' };
}
