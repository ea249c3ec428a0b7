import { LUMP_SUM_DESCRIPTION } from '../../domain/credit-note-amounts';
import { newId } from '../../domain/ids';
import type { Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import { invoiceSelect, serializeInvoice } from '../invoices/invoice-object';
import { creditNoteSelect, serializeCreditNote, type CreditNoteObject } from './credit-note-object';
import { nextCreditNoteNumber } from './number';

type Db = Prisma.TransactionClient;

/** Money the platform already gave back against one invoice, by refund or customer-balance credit. */
export interface MoneyGivenBack {
  invoiceId: string;
  /** Names the movement once per account: a retry finds its note instead of making another. */
  sourceKey: string;
  refund?: { id: string; amount: number };
  balanceCredit?: { transactionId: string; amount: number };
}

/**
 * The documents of money given back without credit-notes/create (docs/credit-notes.md,
 * "Automatic credit notes"): one ISSUED credit note, origin PRORATION, reason ORDER_CHANGE, per
 * movement, in the caller's transaction, after it has taken the invoices' locks. Each records the
 * refund or balance credit as it was made (it moves no money itself), a lump sum with no tax of
 * its own, and counts toward what the invoice has left to credit.
 */
export async function documentMoneyGivenBack(tx: Db, input: { given: readonly MoneyGivenBack[]; description: string; now: Date }): Promise<CreditNoteObject[]> {
  const notes: CreditNoteObject[] = [];
  for (const given of input.given) {
    const invoice = await tx.invoice.findUniqueOrThrow({ where: { id: given.invoiceId }, select: invoiceSelect });
    const existing = await tx.creditNote.findUnique({ where: { accountId_sourceKey: { accountId: invoice.accountId, sourceKey: given.sourceKey } }, select: creditNoteSelect });
    if (existing) {
      notes.push(serializeCreditNote(existing, input.now));
      continue;
    }
    const refund = given.refund?.amount ?? 0;
    const balanceCredit = given.balanceCredit?.amount ?? 0;
    const total = refund + balanceCredit;
    const row = await tx.creditNote.create({
      select: creditNoteSelect,
      data: {
        id: newId('creditNote', input.now.getTime()),
        accountId: invoice.accountId,
        channelId: invoice.channelId,
        invoiceId: invoice.id,
        customerId: invoice.customerId,
        number: await nextCreditNoteNumber(tx, invoice.accountId),
        status: 'ISSUED',
        currency: invoice.currency,
        reason: 'ORDER_CHANGE',
        memo: input.description,
        origin: 'PRORATION',
        totalAmount: total,
        taxAmount: 0,
        prePaymentAmount: 0,
        refundAmount: refund,
        balanceCreditAmount: balanceCredit,
        outOfBandAmount: 0,
        refundId: given.refund?.id ?? null,
        balanceTransactionId: given.balanceCredit?.transactionId ?? null,
        sourceKey: given.sourceKey,
        createdAt: input.now,
        updatedAt: input.now,
        lines: {
          create: [{ id: newId('creditNoteLine', input.now.getTime()), position: 0, description: LUMP_SUM_DESCRIPTION, taxable: total, tax: 0, total }],
        },
      },
    });
    const note = serializeCreditNote(row, input.now);
    await recordEvent(tx, {
      accountId: row.accountId,
      channelId: row.channelId,
      name: 'CreditNoteCreated',
      data: { credit_note: note, invoice: serializeInvoice(invoice, { now: input.now }) },
      occurredAt: input.now,
    });
    notes.push(note);
  }
  return notes;
}

/** documentMoneyGivenBack for refunds reserved in the caller's transaction: one note per refund. */
export async function documentRefunds(tx: Db, input: { refundIds: readonly string[]; description: string; now: Date }): Promise<CreditNoteObject[]> {
  const refunds = await tx.refund.findMany({ where: { id: { in: [...input.refundIds] } }, orderBy: { id: 'asc' }, select: { id: true, invoiceId: true, amount: true } });
  return documentMoneyGivenBack(tx, {
    given: refunds.map((refund) => ({ invoiceId: refund.invoiceId, sourceKey: `refund/${refund.id}`, refund: { id: refund.id, amount: refund.amount } })),
    description: input.description,
    now: input.now,
  });
}

/**
 * documentMoneyGivenBack for a proration credit given to the customer balance (a credit invoice
 * finalized in the caller's transaction, whose magnitude its CREDITED_FROM_INVOICE transaction
 * credited): the credit is money the subscription's paid invoices give back, so it is documented
 * against them, newest first, each note for as much as that invoice had left (`paid`, read under
 * its lock), all naming the one transaction. Nothing when nothing was credited.
 */
export async function documentBalanceCredit(
  tx: Db,
  input: { creditInvoiceId: string; paid: readonly { invoiceId: string; left: number }[]; description: string; now: Date },
): Promise<CreditNoteObject[]> {
  const credited = await tx.customerBalanceTransaction.findFirst({ where: { invoiceId: input.creditInvoiceId, type: 'CREDITED_FROM_INVOICE' }, select: { id: true, amount: true } });
  if (!credited) return [];
  const given: MoneyGivenBack[] = [];
  let rest = -credited.amount;
  for (const { invoiceId, left } of input.paid) {
    const amount = Math.min(rest, left);
    if (amount <= 0) continue;
    given.push({ invoiceId, sourceKey: `balance/${credited.id}/${invoiceId}`, balanceCredit: { transactionId: credited.id, amount } });
    rest -= amount;
  }
  return documentMoneyGivenBack(tx, { given, description: input.description, now: input.now });
}
