import type { UsageLineDetail } from '../../domain/usage/usage-line';
import { formatDateTime } from '../../domain/datetime';
import type { AmountDetails } from '../../domain/invoice-amounts';
import type { CollectionMethod } from '../../domain/collection-methods';
import type { Prisma } from '../../generated/prisma/client';
import type { BillingReason } from '../../domain/billing-reasons';
import type { TaxMode } from '../../domain/invoice-amounts';
import type { InvoiceAddress, InvoiceAmountDetails, InvoiceCustomer, InvoiceObject } from './invoice-object-types';
import type { Metadata } from '../../domain/metadata';

export type { InvoiceCustomer, InvoiceObject };
import { invoicePdfUrl } from './pdf-url';
import { hostedInvoiceUrl } from './hosted-invoice-url';

/** What `invoices.discounts` stores: the coupon as it was applied, so a later coupon change cannot alter an invoice. */
export interface StoredDiscount {
  coupon_id: string;
  coupon_code: string;
  calculation_type: 'PERCENTAGE' | 'AMOUNT';
  calculation_value: number;
}

/** The invoice's own columns: `invoiceSelect` without the line items. */
export const invoiceColumnsSelect = {
  id: true,
  accountId: true,
  channelId: true,
  customerId: true,
  status: true,
  currency: true,
  totalAmount: true,
  amountDue: true,
  amountPaid: true,
  amountDetails: true,
  discounts: true,
  customerSnapshot: true,
  subscriptionId: true,
  billingReason: true,
  collectionMethod: true,
  paymentInstrumentId: true,
  paymentInProgressId: true,
  dueAt: true,
  notes: true,
  merchantReference: true,
  metadata: true,
  finalizedAt: true,
  paidAt: true,
  voidedAt: true,
  deletedAt: true,
  createdAt: true,
  updatedAt: true,
} as const satisfies Prisma.InvoiceSelect;

export const invoiceSelect = {
  ...invoiceColumnsSelect,
  lineItems: { orderBy: { position: 'asc' } },
} as const satisfies Prisma.InvoiceSelect;

export type InvoiceRow = Prisma.InvoiceGetPayload<{ select: typeof invoiceSelect }>;

/** The customer columns an invoice needs: what a snapshot copies, the channel, and the default instrument (configuration). */
export const customerSnapshotSelect = {
  id: true,
  channelId: true,
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  address: true,
  tax: true,
  configuration: true,
} as const satisfies Prisma.CustomerSelect;

export type InvoiceCustomerRow = Prisma.CustomerGetPayload<{ select: typeof customerSnapshotSelect }>;

/** The fields of a customer record a snapshot copies. */
export interface SnapshotSource {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string;
  phone: string | null;
  address: unknown;
  tax: unknown;
}

function present<T>(key: string, value: T | null | undefined): Record<string, T> {
  return value === null || value === undefined ? {} : { [key]: value };
}

/** The section 2.3 customer snapshot of a customer record. */
export function customerSnapshotOf(customer: SnapshotSource): InvoiceCustomer {
  const address = customer.address as InvoiceAddress | null;
  return {
    id: customer.id,
    ...present('first_name', customer.firstName),
    ...present('last_name', customer.lastName),
    email: customer.email,
    ...present('phone', customer.phone),
    ...(address && Object.keys(address).length > 0 ? { address } : {}),
    tax: { taxability: (customer.tax as { taxability: 'EXEMPT' | 'TAXABLE' }).taxability },
  };
}

export interface SerializeOptions {
  now: Date;
  /** Required for a DRAFT: it shows the live customer, as it has no snapshot yet. */
  customer?: SnapshotSource;
  /** Section 6.2: the InvoiceDeleted payload has no amount_due and no invoice-level amount_details. */
  deleted?: boolean;
}

/** The stored `amount_details` with both balance fields, 0 where finalization has not set them. */
export function invoiceAmountDetails(stored: unknown): InvoiceAmountDetails {
  const details = stored as AmountDetails & Partial<InvoiceAmountDetails>;
  return { ...details, balance_applied: details.balance_applied ?? 0, balance_credited: details.balance_credited ?? 0 };
}

/** The section 2.3 invoice, as every invoice operation answers and every invoice event carries. */
export function serializeInvoice(row: InvoiceRow, options: SerializeOptions): InvoiceObject {
  let customer = row.customerSnapshot as InvoiceCustomer | null;
  if (customer === null) {
    if (!options.customer) throw new Error(`Invoice ${row.id} has no snapshot yet: pass its live customer.`);
    customer = customerSnapshotOf(options.customer);
  }
  const issued = row.status !== 'DRAFT';
  const pdfUrl = issued ? invoicePdfUrl(row.id, options.now) : undefined;
  return {
    id: row.id,
    channel_id: row.channelId,
    status: row.status as InvoiceObject['status'],
    currency: row.currency,
    total_amount: row.totalAmount,
    ...(options.deleted ? {} : { amount_due: row.amountDue, amount_details: invoiceAmountDetails(row.amountDetails) }),
    line_items: row.lineItems.map((line) => ({
      id: line.id,
      ...present('product_price_id', line.productPriceId),
      ...present('description', line.description),
      amount: line.amount,
      currency: line.currency,
      quantity: line.quantity,
      amount_details: { subtotal: line.subtotal, discount: line.discount, taxable: line.taxable, tax: line.tax },
      ...(line.taxMode && line.taxRate
        ? {
            tax: {
              ...present('category_id', line.taxCategoryId),
              mode: line.taxMode as TaxMode,
              rate: Number(line.taxRate.toString()),
            },
          }
        : {}),
      ...present('usage', line.usage as UsageLineDetail | null),
    })),
    customer,
    ...present('subscription_id', row.subscriptionId),
    billing_reason: row.billingReason as BillingReason,
    collection_method: row.collectionMethod as CollectionMethod,
    ...present('payment_instrument_id', row.paymentInstrumentId),
    ...present('due_at', row.dueAt && formatDateTime(row.dueAt)),
    discounts: row.discounts as unknown as StoredDiscount[],
    ...present('notes', row.notes),
    ...present('merchant_reference', row.merchantReference),
    ...present('metadata', row.metadata as Metadata | null),
    ...present('pdf_url', pdfUrl),
    ...present('hosted_invoice_url', issued ? hostedInvoiceUrl(row.id) : undefined),
    ...present('finalized_at', row.finalizedAt && formatDateTime(row.finalizedAt)),
    ...present('paid_at', row.paidAt && formatDateTime(row.paidAt)),
    ...present('voided_at', row.voidedAt && formatDateTime(row.voidedAt)),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
