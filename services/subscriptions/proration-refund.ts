import { creditToRefund, type Proration } from '../../domain/subscriptions/proration';
import type { Database } from '../../prisma/client';
import { readMoneyGivenBack } from '../payments/left-to-give-back';
import { finishRefund, refundablePayment, reserveRefund } from '../payments/refunds';
import { documentRefunds } from '../credit-notes/money-given-back';
import { lockInvoice } from '../payments/settle';
import { creditProrationToBalance } from './proration-balance-credit';

export interface ProrationCredit {
  subscriptionId: string;
  /** Names the credit (`proration/<version>`): its refunds are keyed by it, once each. */
  key: string;
  credit: Proration;
}

/**
 * Gives back a proration credit (docs/subscriptions.md, "Proration"). A credit destined to the
 * customer balance becomes a credit invoice (creditProrationToBalance); otherwise, as before: discounted as the
 * newest paid invoice was and taxed as its lines were (creditToRefund), then refunded against the
 * subscription's paid invoices, newest first, as far as what each has left to give back goes
 * (services/payments/left-to-give-back.ts, under its lock); what they never took is not given.
 * All refunds are reserved in one transaction under keys derived from the credit, so a retry
 * finds them and only finishes them with their providers.
 */
export async function refundProrationCredit(
  deps: { db: Database; now: () => Date },
  input: ProrationCredit,
): Promise<{ refunded: number; refundIds: string[]; creditInvoiceId?: string | null }> {
  if (input.credit.to === 'CUSTOMER_BALANCE' && input.credit.at !== undefined) {
    const { creditInvoiceId } = await creditProrationToBalance(deps, { ...input, at: input.credit.at });
    return { refunded: 0, refundIds: [], creditInvoiceId };
  }
  const { db } = deps;
  const prefix = `subscription-credit/${input.subscriptionId}/${input.key}/`;
  const refundIds = await db.$transaction(async (tx) => {
    const paid = await tx.invoice.findMany({
      // Credit invoices (negative totals) took no payment and discount nothing.
      where: { subscriptionId: input.subscriptionId, status: 'PAID', deletedAt: null, totalAmount: { gt: 0 } },
      orderBy: { id: 'desc' },
      select: { id: true, accountId: true, amountDetails: true },
    });
    if (paid.length === 0) return [];
    // Refunds stay on PAID invoices: a retry finds what the first run reserved among them.
    const reserved = await tx.refund.findMany({
      where: { invoiceId: { in: paid.map((invoice) => invoice.id) }, idempotencyKey: { startsWith: prefix } },
      orderBy: { id: 'asc' },
      select: { id: true },
    });
    if (reserved.length > 0) return reserved.map((r) => r.id);
    const newest = paid[0]!;
    let left = creditToRefund(input.credit, newest.amountDetails as { subtotal: number; discount: number });
    const ids: string[] = [];
    const now = deps.now();
    for (const invoice of paid) {
      if (left === 0) break;
      await lockInvoice(tx, invoice.id);
      const found = await refundablePayment(tx, invoice.id);
      if (!found) continue;
      // Credit notes may have given part of the invoice back already (to the balance, out of band).
      const amount = Math.min(left, found.refundable, (await readMoneyGivenBack(tx, invoice.id)).refundable);
      if (amount === 0) continue;
      ids.push(await reserveRefund(tx, { invoice, payment: found.payment, amount, reason: input.credit.description, key: `${prefix}${invoice.id}`, now }));
      left -= amount;
    }
    await documentRefunds(tx, { refundIds: ids, description: input.credit.description, now });
    return ids;
  });
  let refunded = 0;
  for (const id of refundIds) {
    const outcome = await finishRefund(db, id, (work) => db.$transaction(work), deps.now);
    if (outcome.refund.status === 'SUCCEEDED') refunded += outcome.refund.amount;
  }
  return { refunded, refundIds };
}
