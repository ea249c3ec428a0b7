import { capCreditParts, discountedCreditParts, type CreditPart, type Proration } from '../../domain/subscriptions/proration';
import type { CollectionMethod } from '../../domain/collection-methods';
import type { Database, Prisma } from '../../prisma/client';
import { documentBalanceCredit } from '../credit-notes/money-given-back';
import { finalizeDraft } from '../invoices/finalize';
import { readMoneyGivenBack } from '../payments/left-to-give-back';
import { lockInvoice } from '../payments/settle';
import { createInvoiceRecord, findInvoiceCustomer } from '../invoices/repository';
import { subscriptionInvoiceId } from './invoice-id';
import type { ProrationCredit } from './proration-refund';

/**
 * What a proration credit gives to the balance now: its parts, discounted as the newest PAID
 * invoice was and capped at what the subscription's PAID invoices have left to give back, and
 * each of those invoices with its rest, newest first. `lock` takes their row locks (the credit
 * itself); a preview reads without.
 */
export async function balanceCreditParts(
  tx: Prisma.TransactionClient,
  subscriptionId: string,
  credit: Proration,
  options: { lock: boolean },
): Promise<{ parts: CreditPart[]; paid: { invoiceId: string; left: number }[] }> {
  const invoices = await tx.invoice.findMany({
    // Credit invoices (negative totals) took no payment and discount nothing.
    where: { subscriptionId, status: 'PAID', deletedAt: null, totalAmount: { gt: 0 } },
    orderBy: { id: 'desc' },
    select: { id: true, amountDetails: true },
  });
  const paid: { invoiceId: string; left: number }[] = [];
  for (const invoice of invoices) {
    if (options.lock) await lockInvoice(tx, invoice.id);
    paid.push({ invoiceId: invoice.id, left: (await readMoneyGivenBack(tx, invoice.id)).left });
  }
  const newest = invoices[0]?.amountDetails as { subtotal: number; discount: number } | undefined;
  const limit = paid.reduce((sum, invoice) => sum + invoice.left, 0);
  const parts = newest ? capCreditParts(discountedCreditParts(credit, newest), limit).filter((part) => part.amount > 0) : [];
  return { parts, paid };
}

/**
 * A proration credit given to the customer balance (docs/customer-balance.md, "Proration
 * credits"): a credit invoice with one negative line per tax treatment, discounted as the
 * newest paid invoice was and taxed as its lines were (the same amount a refund would give),
 * finalized at once: its total is negative, so it is PAID with amount_due 0 and its magnitude is
 * credited to the balance (CREDITED_FROM_INVOICE). That credit is money the subscription's paid
 * invoices give back: it is capped at what they have left to give back (read under their locks,
 * newest first, as a proration refund does) and documented by automatic credit notes against
 * them, so a later refund cannot give it again. Nothing is credited when nothing is left (no paid
 * invoice, or all given back). Its id derives from the credit's key, so a retried activity finds
 * it instead of crediting twice.
 */
export async function creditProrationToBalance(
  deps: { db: Database; now: () => Date },
  input: ProrationCredit & { at: number },
): Promise<{ creditInvoiceId: string | null; credited: number }> {
  const id = subscriptionInvoiceId(input.subscriptionId, `credit/${input.key}`, input.at);
  return deps.db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM subscriptions WHERE id = ${input.subscriptionId} FOR UPDATE`;
    const existing = await tx.invoice.findUnique({ where: { id }, select: { totalAmount: true } });
    if (existing) return { creditInvoiceId: id, credited: -existing.totalAmount };
    const subscription = await tx.subscription.findUniqueOrThrow({
      where: { id: input.subscriptionId },
      select: { accountId: true, customerId: true, currency: true, collectionMethod: true },
    });
    const { parts, paid } = await balanceCreditParts(tx, input.subscriptionId, input.credit, { lock: true });
    if (parts.length === 0) return { creditInvoiceId: null, credited: 0 };
    const now = deps.now();
    const { row } = await createInvoiceRecord(tx, {
      id,
      accountId: subscription.accountId,
      customer: await findInvoiceCustomer(tx, subscription.customerId),
      currency: subscription.currency,
      billingReason: 'SUBSCRIPTION_CYCLE',
      subscriptionId: input.subscriptionId,
      state: {
        lines: parts.map((part) => ({ productPriceId: null, description: input.credit.description, amount: -part.amount, quantity: 1, tax: part.tax })),
        discounts: [],
        collectionMethod: subscription.collectionMethod as CollectionMethod,
        paymentInstrumentId: null,
        dueAt: null,
        notes: null,
        merchantReference: null,
        metadata: null,
      },
      now,
    });
    const finalized = await finalizeDraft(tx, row, { now, instrumentChecked: false });
    await documentBalanceCredit(tx, { creditInvoiceId: id, paid, description: input.credit.description, now });
    return { creditInvoiceId: id, credited: -finalized.row.totalAmount };
  });
}
