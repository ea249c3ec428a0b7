import { formatDateTime } from '../../domain/datetime';
import { providerPaymentUrl } from '../../domain/provider-payment-links';
import type { Prisma } from '../../prisma/client';
import { visibleInvoice } from '../invoices/repository';
import type { Scope } from '../scope';

const paymentSelect = {
  id: true,
  invoiceId: true,
  instrumentId: true,
  amount: true,
  currency: true,
  status: true,
  declineCode: true,
  declineMessage: true,
  provider: true,
  providerChargeId: true,
  nextActionUrl: true,
  refundedAmount: true,
  createdAt: true,
  updatedAt: true,
} as const;

export type InvoicePaymentRow = Prisma.PaymentGetPayload<{ select: typeof paymentSelect }> & {
  /** The payment in its provider's dashboard, decided with the rows (it needs the account's Stripe mode). */
  providerUrl?: string;
};

/** One payment of an invoice as invoices/list-payments answers it (docs/invoice-payments.md). */
export interface InvoicePaymentRecord {
  id: string;
  invoice_id: string;
  status: string;
  amount: number;
  currency: string;
  decline_code?: string;
  decline_message?: string;
  provider?: string;
  provider_reference?: string;
  provider_url?: string;
  next_action_url?: string;
  payment_instrument_id: string;
  refunded_amount: number;
  created_at: string;
  updated_at: string;
}

/**
 * One page of a visible invoice's payments (each attempt to collect it: pays, renewals, dunning
 * retries), newest first: `take` payments older than `beforeId`. Unknown or outside the scope:
 * 404, as invoices/get. A Stripe payment's link says test or live by the account's connection.
 */
export async function listInvoicePayments(
  db: Prisma.TransactionClient,
  scope: Scope,
  query: { invoiceId: string; beforeId?: string; take: number },
): Promise<InvoicePaymentRow[]> {
  const invoice = await visibleInvoice(db, scope, query.invoiceId);
  const rows = await db.payment.findMany({
    where: { accountId: scope.accountId, invoiceId: invoice.id, ...(query.beforeId ? { id: { lt: query.beforeId } } : {}) },
    orderBy: { id: 'desc' },
    take: query.take,
    select: paymentSelect,
  });
  if (!rows.some((row) => row.provider === 'stripe')) return rows;
  const connection = await db.stripeConnection.findUnique({ where: { accountId: scope.accountId }, select: { livemode: true } });
  return rows.map((row) => {
    const url = row.provider && row.providerChargeId ? providerPaymentUrl(row.provider, row.providerChargeId, connection?.livemode ?? false) : undefined;
    return url ? { ...row, providerUrl: url } : row;
  });
}

export function serializeInvoicePayment(row: InvoicePaymentRow): InvoicePaymentRecord {
  return {
    id: row.id,
    invoice_id: row.invoiceId!,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    ...(row.declineCode !== null ? { decline_code: row.declineCode } : {}),
    ...(row.declineMessage !== null ? { decline_message: row.declineMessage } : {}),
    ...(row.provider !== null ? { provider: row.provider } : {}),
    ...(row.providerChargeId !== null ? { provider_reference: row.providerChargeId } : {}),
    ...(row.providerUrl ? { provider_url: row.providerUrl } : {}),
    ...(row.nextActionUrl !== null && row.status === 'REQUIRES_ACTION' ? { next_action_url: row.nextActionUrl } : {}),
    payment_instrument_id: row.instrumentId,
    refunded_amount: row.refundedAmount,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
