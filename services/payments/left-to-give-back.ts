import { moneyGivenBack, type MoneyGivenBack } from '../../domain/money-given-back';
import type { Prisma } from '../../prisma/client';
import { invoiceAmountDetails } from '../invoices/invoice-object';

type Db = Prisma.TransactionClient;

/**
 * What invoice `invoiceId` has given back and has left to give back (domain/money-given-back.ts),
 * read from its rows. Call it under the invoice's row lock, which every refund, credit note and
 * note void takes: two concurrent callers then cannot both spend the same amount.
 */
export async function readMoneyGivenBack(tx: Db, invoiceId: string): Promise<MoneyGivenBack> {
  const [invoice, refunds, issuedNotes] = await Promise.all([
    tx.invoice.findUniqueOrThrow({ where: { id: invoiceId }, select: { amountPaid: true, amountDetails: true, status: true } }),
    tx.refund.findMany({ where: { invoiceId }, select: { id: true, amount: true, status: true } }),
    tx.creditNote.findMany({
      where: { invoiceId, status: 'ISSUED' },
      select: { refundId: true, refundAmount: true, balanceCreditAmount: true, outOfBandAmount: true },
    }),
  ]);
  return moneyGivenBack({
    amountPaid: invoice.amountPaid,
    balanceApplied: invoiceAmountDetails(invoice.amountDetails).balance_applied,
    paid: invoice.status === 'PAID',
    refunds,
    issuedNotes,
  });
}
