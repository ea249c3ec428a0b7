import { exactNumber } from '../domain/payments';
import type { Reconciliation, SettlementLineKind } from '../domain/settlement-lines';
import type { Database } from '../prisma/client';
import type { BookLine } from './settlement-books';

const PAGE = 2_000;

/**
 * The lines a settlement was made with, for a provider whose books are not ours to read again
 * (a Stripe payout's balance transactions, reconciled when it was settled: docs/settlements.md,
 * "Settlements from Stripe"), in their order, a page at a time.
 */
export async function* storedLines(
  db: Database,
  settlement: { id: string; provider: string; legalEntityId: string },
): AsyncGenerator<BookLine> {
  let after = -1;
  for (;;) {
    const rows = await db.settlementLine.findMany({ where: { settlementId: settlement.id, position: { gt: after } }, orderBy: { position: 'asc' }, take: PAGE });
    for (const row of rows) {
      yield {
        kind: row.kind as SettlementLineKind,
        provider: settlement.provider,
        providerReference: row.providerReference,
        providerChargeId: row.providerChargeId,
        transactedAt: row.transactedAt,
        currency: row.currency,
        grossAmount: exactNumber(row.grossAmount, 'gross'),
        refundedAmount: exactNumber(row.refundedAmount, 'refunded'),
        feeAmount: exactNumber(row.feeAmount, 'fee'),
        adjustmentAmount: exactNumber(row.adjustmentAmount, 'adjustment'),
        paymentId: row.paymentId,
        invoiceId: row.invoiceId,
        channelId: row.channelId,
        refundId: row.refundId,
        legalEntityId: settlement.legalEntityId,
        reconciliation: row.reconciliation as Reconciliation,
      };
    }
    const last = rows[rows.length - 1];
    if (rows.length < PAGE || !last) return;
    after = last.position;
  }
}
