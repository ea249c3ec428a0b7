import { balanceAtFinalization } from '../../domain/balance-application';
import { formatDateTime } from '../../domain/datetime';
import { Prisma } from '../../generated/prisma/client';
import type { InvoiceLineItem } from '../invoices/invoice-object-types';
import { serializeInvoice, type InvoiceObject, type InvoiceRow } from '../invoices/invoice-object';
import { findInvoiceCustomer, lineRows } from '../invoices/repository';
import { chargedInstrumentId } from '../payment-instruments/chargeable-instrument';
import type { SubscriptionInvoice } from '../subscriptions/invoice-draft';

type Customer = Awaited<ReturnType<typeof findInvoiceCustomer>>;

/** What only an issued invoice has: its id, status, document and the times it was written. */
type IssuedOnly = 'id' | 'status' | 'pdf_url' | 'hosted_invoice_url' | 'finalized_at' | 'paid_at' | 'voided_at' | 'created_at' | 'updated_at' | 'line_items';

/** The section 2.3 invoice a preview shows: every field the issued invoice will carry, less what only issuing gives it. */
export type InvoicePreview = Omit<InvoiceObject, IssuedOnly> & {
  line_items: Omit<InvoiceLineItem, 'id'>[];
  /** When the workflow issues it (the update's time for an update's invoice). */
  issued_at: string;
  /** The period it bills: a cycle's, a PAID trial's, or what is left of the period for a proration. */
  period: { start_at: string; end_at: string | null };
  /** The customer's balance in the invoice's currency before it (negative: credit owed to the customer). */
  starting_balance: number;
  /** The customer's balance after finalization took its part (balance_applied and balance_credited in amount_details). */
  ending_balance: number;
};

/**
 * The invoice `built` as finalization will issue it, without writing it: the same columns
 * createInvoiceRecord would store and finalizeDraft would set (customer frozen, the charged
 * instrument resolved), serialised by serializeInvoice, the one invoice serialiser.
 *
 * `balance` is the customer's balance in the invoice's currency (negative: credit); finalization's
 * own rule (balanceAtFinalization) decides what of it the invoice takes (docs/invoice-preview.md, "Balance").
 */
export function invoicePreviewObject(
  built: SubscriptionInvoice,
  context: { accountId: string; subscriptionId: string; currency: string; customer: Customer; issuedAt: number; period: { start: number; end: number | null } },
  balance = 0,
): InvoicePreview {
  const { draft, amounts } = built;
  const issuedAt = new Date(context.issuedAt);
  const charged = draft.collectionMethod === 'CHARGE_AUTOMATICALLY' && amounts.total > 0;
  const settlement = balanceAtFinalization(amounts.total, balance);
  const row: InvoiceRow = {
    id: '',
    accountId: context.accountId,
    channelId: context.customer.channelId,
    customerId: context.customer.id,
    status: 'DRAFT',
    currency: context.currency,
    totalAmount: amounts.total,
    amountDue: settlement.amountDue,
    amountPaid: 0,
    amountDetails: { ...amounts.amountDetails, balance_applied: settlement.balanceApplied, balance_credited: settlement.balanceCredited } as unknown as Prisma.JsonValue,
    discounts: draft.discounts as unknown as Prisma.JsonValue,
    customerSnapshot: null,
    subscriptionId: context.subscriptionId,
    billingReason: built.billingReason,
    collectionMethod: draft.collectionMethod,
    paymentInstrumentId: charged ? (chargedInstrumentId(draft.paymentInstrumentId, context.customer) ?? null) : draft.paymentInstrumentId,
    paymentInProgressId: null,
    dueAt: draft.dueAt,
    notes: draft.notes,
    merchantReference: draft.merchantReference,
    metadata: draft.metadata,
    finalizedAt: null,
    paidAt: null,
    voidedAt: null,
    deletedAt: null,
    createdAt: issuedAt,
    updatedAt: issuedAt,
    lineItems: lineRows('', context.currency, draft, amounts, issuedAt).map((line) => ({ ...line, taxRate: line.taxRate === null ? null : new Prisma.Decimal(line.taxRate) })),
  };
  const { id: _id, status: _status, pdf_url: _pdf, hosted_invoice_url: _hosted, finalized_at: _f, paid_at: _p, voided_at: _v, created_at: _c, updated_at: _u, line_items, ...rest } = serializeInvoice(row, {
    now: issuedAt,
    customer: context.customer,
  });
  return {
    ...rest,
    line_items: line_items.map(({ id: _lineId, ...line }) => line),
    issued_at: formatDateTime(issuedAt),
    period: { start_at: formatDateTime(new Date(context.period.start)), end_at: context.period.end === null ? null : formatDateTime(new Date(context.period.end)) },
    starting_balance: balance,
    ending_balance: balance + settlement.balanceApplied - settlement.balanceCredited,
  };
}
