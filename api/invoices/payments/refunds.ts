import { createRefundRegistry, type RefundRegistry } from '../../../activities/providers/registry';
import { formatDateTime } from '../../../domain/datetime';
import type { Database, Prisma } from '../../../prisma/client';
import { recordEvent } from '../../../prisma/outbox';
import { invoiceSelect, serializeInvoice, type InvoiceObject } from '../schemas';
import type { RefundObject } from './schemas';
import { lockInvoice } from './settle';

type Db = Prisma.TransactionClient;
type RefundRow = Awaited<ReturnType<Database['refund']['findUniqueOrThrow']>>;

export function refundObjectOf(row: RefundRow, currency: string): RefundObject {
  return {
    id: row.id,
    invoice_id: row.invoiceId,
    payment_id: row.paymentId,
    amount: row.amount,
    currency,
    ...(row.reason !== null ? { reason: row.reason } : {}),
    status: row.status as RefundObject['status'],
    provider: row.provider,
    created_at: formatDateTime(row.createdAt),
  };
}

export interface RefundOutcome {
  invoice: InvoiceObject;
  refund: RefundObject;
  amount_refunded: number;
}

/**
 * Finishes a refund recorded PENDING (docs/invoice-payments.md, "Refunds"): asks the provider
 * under the refund's own key, which returns the same refund however often it is asked, then
 * records the answer with InvoicePaymentRefunded in one transaction. Safe to repeat and to run
 * concurrently: only the call that finds the refund still PENDING writes.
 */
export async function finishRefund(
  db: Database,
  refundId: string,
  transaction: <T>(work: (tx: Db) => Promise<T>) => Promise<T>,
  now: () => Date,
  providers: RefundRegistry = createRefundRegistry(db),
): Promise<RefundOutcome> {
  const refund = await db.refund.findUniqueOrThrow({ where: { id: refundId } });
  const answer = refund.status === 'PENDING' ? await askProvider(db, providers, refund) : undefined;
  return transaction(async (tx) => {
    await lockInvoice(tx, refund.invoiceId);
    let current = await tx.refund.findUniqueOrThrow({ where: { id: refundId } });
    const at = now();
    const settles = current.status === 'PENDING' && answer !== undefined;
    if (settles && answer.outcome === 'REFUNDED') {
      current = await tx.refund.update({ where: { id: refundId }, data: { status: 'SUCCEEDED', providerRefundId: answer.providerRefundId, updatedAt: at } });
    } else if (settles) {
      // The provider refused: give back the amount reserved when the refund was recorded.
      current = await tx.refund.update({ where: { id: refundId }, data: { status: 'FAILED', updatedAt: at } });
      await tx.payment.update({ where: { id: refund.paymentId }, data: { refundedAmount: { decrement: refund.amount }, updatedAt: at } });
      await tx.invoice.update({ where: { id: refund.invoiceId }, data: { amountRefunded: { decrement: refund.amount } } });
    }
    const row = await tx.invoice.findUniqueOrThrow({ where: { id: refund.invoiceId }, select: { ...invoiceSelect, amountRefunded: true } });
    const outcome = { invoice: serializeInvoice(row, { now: at }), refund: refundObjectOf(current, row.currency), amount_refunded: row.amountRefunded };
    if (settles && current.status === 'SUCCEEDED') {
      await recordEvent(tx, {
        accountId: row.accountId,
        channelId: row.channelId,
        name: 'InvoicePaymentRefunded',
        data: { invoice: outcome.invoice, refund: outcome.refund, amount_refunded: row.amountRefunded },
        occurredAt: at,
      });
    }
    return outcome;
  });
}

async function askProvider(db: Database, providers: RefundRegistry, refund: RefundRow) {
  const payment = await db.payment.findUniqueOrThrow({ where: { id: refund.paymentId }, select: { providerChargeId: true } });
  const provider = providers.get(refund.provider);
  if (!provider || !payment.providerChargeId) {
    return { outcome: 'REJECTED' as const };
  }
  return provider.refund({ idempotencyKey: refund.idempotencyKey, providerChargeId: payment.providerChargeId, amount: refund.amount });
}
