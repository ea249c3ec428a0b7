import type { Database } from '../../prisma/client';

/** What an invoice PDF shows, read from the database in one place. */
export interface InvoiceDocument {
  id: string;
  accountName: string;
  status: string;
  currency: string;
  createdAt: Date;
  finalizedAt: Date | null;
  dueAt: Date | null;
  paidAt: Date | null;
  voidedAt: Date | null;
  merchantReference: string | null;
  notes: string | null;
  customer: CustomerSnapshot;
  lines: InvoiceDocumentLine[];
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
  amountDue: number;
  amountPaid: number;
  amountRefunded: number;
}

export interface InvoiceDocumentLine {
  description: string | null;
  quantity: number;
  unitAmount: number;
  discount: number;
  taxMode: string | null;
  /** As stored (Decimal(7,4)), printed without trailing zeros: "19", "7.5". */
  taxRate: string | null;
  tax: number;
  /** Rule 5 of domain/invoice-amounts.ts: taxable + exclusive tax. */
  total: number;
}

/** The section 2.3 invoice customer snapshot. */
export interface CustomerSnapshot {
  id: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string;
  address?: { city?: string; country?: string; line1?: string; line2?: string; state?: string; postal_code?: string };
}

interface AmountDetailsColumn {
  subtotal: number;
  discount: number;
  tax?: number;
}

/**
 * The invoice as its PDF shows it, or null when there is nothing to show: unknown, deleted, or
 * still a DRAFT (a draft can change at any moment; a PDF is a document of what was issued).
 */
export async function loadInvoiceDocument(db: Database, invoiceId: string): Promise<InvoiceDocument | null> {
  const invoice = await db.invoice.findUnique({
    where: { id: invoiceId },
    include: { lineItems: { orderBy: { position: 'asc' } } },
  });
  if (!invoice || invoice.deletedAt || invoice.status === 'DRAFT') return null;
  const account = await db.account.findUniqueOrThrow({ where: { id: invoice.accountId }, select: { name: true } });
  const details = invoice.amountDetails as unknown as AmountDetailsColumn;
  return {
    id: invoice.id,
    accountName: account.name,
    status: invoice.status,
    currency: invoice.currency,
    createdAt: invoice.createdAt,
    finalizedAt: invoice.finalizedAt,
    dueAt: invoice.dueAt,
    paidAt: invoice.paidAt,
    voidedAt: invoice.voidedAt,
    merchantReference: invoice.merchantReference,
    notes: invoice.notes,
    // Finalization freezes the snapshot, so every issued invoice has one; the id alone is the honest minimum.
    customer: (invoice.customerSnapshot as unknown as CustomerSnapshot | null) ?? { id: invoice.customerId },
    lines: invoice.lineItems.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unitAmount: line.amount,
      discount: line.discount,
      taxMode: line.taxMode,
      taxRate: line.taxRate?.toString() ?? null,
      tax: line.tax,
      total: line.taxable + (line.taxMode === 'EXCLUSIVE' ? line.tax : 0),
    })),
    subtotal: details.subtotal,
    discount: details.discount,
    tax: details.tax ?? 0,
    total: invoice.totalAmount,
    amountDue: invoice.amountDue,
    amountPaid: invoice.amountPaid,
    amountRefunded: invoice.amountRefunded,
  };
}
