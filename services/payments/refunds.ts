import { createRefundRegistry, type RefundRegistry } from './providers/registry';
import type { RefundResult } from './providers/provider';
import { formatDateTime } from '../../domain/datetime';
import { newId } from '../../domain/ids';
import type { Database, Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import { invoiceSelect, serializeInvoice, type InvoiceObject } from '../invoices/invoice-object';
import type { RefundObject } from './payment-objects';
import { lockInvoice } from './settle';

type Db = Prisma.TransactionClient;
type RefundRow = Awaited<ReturnType<Database['refund']['findUniqueOrThrow']>>;
type PaymentRow = Awaited<ReturnType<Database['payment']['findUniqueOrThrow']>>;

/** The invoice's captured payment and what is left to refund of it; null when nothing was captured through a provider. */
export async function refundablePayment(tx: Db, invoiceId: string): Promise<{ payment: PaymentRow & { provider: string }; refundable: number } | null> {
  const payment = await tx.payment.findFirst({ where: { invoiceId, status: 'SUCCEEDED' }, orderBy: { id: 'desc' } });
  if (!payment?.provider) return null;
  return { payment: { ...payment, provider: payment.provider }, refundable: payment.amount - payment.refundedAmount };
}

/** A refund left PENDING this long was abandoned by its request (a live one settles in milliseconds). */
export const REFUND_LEASE_MS = 60_000;

/**
 * Refunds whose request died between recording and settling them, oldest first: finishing one
 * is safe at any time (the provider answers once per key). `invoice` narrows to one invoice,
 * `take` bounds a sweep of them all.
 */
export async function abandonedRefunds(db: Db, now: Date, options: { invoice?: { accountId: string; id: string }; take?: number }): Promise<string[]> {
  const rows = await db.refund.findMany({
    where: {
      ...(options.invoice ? { accountId: options.invoice.accountId, invoiceId: options.invoice.id } : {}),
      status: 'PENDING',
      createdAt: { lt: new Date(now.getTime() - REFUND_LEASE_MS) },
    },
    orderBy: { createdAt: 'asc' },
    ...(options.take !== undefined ? { take: options.take } : {}),
    select: { id: true },
  });
  return rows.map((row) => row.id);
}

export interface RefundReservation {
  invoice: { id: string; accountId: string };
  payment: { id: string; provider: string };
  amount: number;
  reason: string | null;
  /** The refund's idempotency key: one refund per key and account. */
  key: string;
  now: Date;
}

/**
 * Records a refund PENDING and reserves its amount on the payment and the invoice, inside the
 * caller's transaction and under the invoice's lock, so concurrent refunds cannot together
 * exceed the payment. finishRefund then asks the provider. Returns the refund's id.
 */
export async function reserveRefund(tx: Db, r: RefundReservation): Promise<string> {
  await tx.payment.update({ where: { id: r.payment.id }, data: { refundedAmount: { increment: r.amount }, updatedAt: r.now } });
  await tx.invoice.update({ where: { id: r.invoice.id }, data: { amountRefunded: { increment: r.amount } } });
  const refund = await tx.refund.create({
    data: {
      id: newId('refund', r.now.getTime()),
      accountId: r.invoice.accountId,
      invoiceId: r.invoice.id,
      paymentId: r.payment.id,
      amount: r.amount,
      reason: r.reason,
      status: 'PENDING',
      provider: r.payment.provider,
      idempotencyKey: r.key,
      createdAt: r.now,
      updatedAt: r.now,
    },
  });
  return refund.id;
}

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
  /** The provider's answer when it came by itself (a webhook); asked of the provider otherwise. */
  told?: RefundResult,
): Promise<RefundOutcome> {
  const refund = await db.refund.findUniqueOrThrow({ where: { id: refundId } });
  const answer = refund.status === 'PENDING' ? (told ?? (await askProvider(db, providers, refund))) : undefined;
  return transaction(async (tx) => {
    await lockInvoice(tx, refund.invoiceId);
    let current = await tx.refund.findUniqueOrThrow({ where: { id: refundId } });
    const at = now();
    const settles = current.status === 'PENDING' && answer !== undefined && answer.outcome !== 'PENDING';
    if (current.status === 'PENDING' && answer?.outcome === 'PENDING' && current.providerRefundId !== answer.providerRefundId) {
      // The provider accepted it and finishes it later: its id is kept; the refund stays PENDING.
      current = await tx.refund.update({ where: { id: refundId }, data: { providerRefundId: answer.providerRefundId, updatedAt: at } });
    }
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
  return provider.refund({ idempotencyKey: refund.idempotencyKey, accountId: refund.accountId, providerChargeId: payment.providerChargeId, amount: refund.amount });
}
