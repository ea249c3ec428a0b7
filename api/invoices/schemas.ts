import { z } from 'zod';
import { formatDateTime } from '../../domain/datetime';
import { hasAtMostFourDecimals, TAX_MODES, type AmountDetails, type TaxMode } from '../../domain/invoice-amounts';
import { INVOICE_STATUSES } from '../../domain/invoice-status';
import { COLLECTION_METHODS, type CollectionMethod } from '../../domain/collection-methods';
import type { Prisma } from '../../generated/prisma/client';
import { dateTime, prefixedId } from '../common/schemas';
import { calculationType, couponCode } from '../coupons/schemas';
import { addressObject, type Address } from '../customers/schemas';
import { MAX_PRICE_AMOUNT } from '../product-prices/schemas';
import { catalogueId } from '../products/schemas';
import { invoicePdfUrl } from './pdf-url';

export { COLLECTION_METHODS, type CollectionMethod };

/** Limits the spec leaves open (section 8), documented in docs/invoices.md. */
export const MAX_LINE_ITEMS = 100;
export const MAX_QUANTITY = 100_000;
export const MAX_DISCOUNTS = 10;
/** The invoice columns are 32-bit: the total and the sum of subtotals must fit. */
export const MAX_INVOICE_AMOUNT = 2_147_483_647;

export const BILLING_REASONS = ['MANUAL', 'SUBSCRIPTION_CREATE', 'SUBSCRIPTION_CYCLE'] as const;
export { TAX_MODES, type TaxMode };

export type BillingReason = (typeof BILLING_REASONS)[number];

export const invoiceId = prefixedId('invoice');
export const invoiceStatus = z.enum(INVOICE_STATUSES);
export const collectionMethod = z.enum(COLLECTION_METHODS).meta({
  description: 'CHARGE_AUTOMATICALLY: finalizing starts collection from the payment instrument. SEND_INVOICE (default): the customer pays.',
});

/* ---------- requests ---------- */

const taxRate = z
  .number()
  .min(0)
  .max(100)
  .refine(hasAtMostFourDecimals, { message: 'At most four decimal places.', params: { type: 'FORMAT' } })
  .meta({ description: 'Percent, for example 7.5; up to four decimals.' });

export const lineTaxRequest = z.strictObject({
  category_id: prefixedId('taxCategory').optional().meta({ description: 'Defaults to the price’s tax_category_id.' }),
  mode: z.enum(TAX_MODES).meta({ description: 'EXCLUSIVE: added on top. INCLUSIVE: already inside the amount.' }),
  rate: taxRate,
});

export type LineTaxRequest = z.infer<typeof lineTaxRequest>;

export const lineItemRequest = z
  .strictObject({
    product_price_id: catalogueId.optional().meta({ description: 'Bill a catalogue price: amount and currency come from it.' }),
    amount: z.number().int().min(0).max(MAX_PRICE_AMOUNT).optional().meta({ description: 'Unit amount in minor units, for a line without a price.' }),
    description: z.string().trim().min(1).max(500).optional().meta({ description: 'Required with `amount`; defaults to the product name for a price.' }),
    quantity: z.number().int().min(1).max(MAX_QUANTITY),
    tax: lineTaxRequest.optional(),
  })
  .superRefine((line, ctx) => {
    const issue = (path: string, type: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message, params: { type } });
    if (line.product_price_id !== undefined && line.amount !== undefined) {
      issue('amount', 'INVALID', 'Give either product_price_id or amount, not both.');
    } else if (line.product_price_id === undefined && line.amount === undefined) {
      issue('product_price_id', 'REQUIRED', 'Give product_price_id, or amount and description.');
    } else if (line.amount !== undefined && line.description === undefined) {
      issue('description', 'REQUIRED', 'A line without a price needs a description.');
    }
  });

export type LineItemRequest = z.output<typeof lineItemRequest>;

export const lineItemsRequest = z.array(lineItemRequest).max(MAX_LINE_ITEMS);

export const discountRequest = z
  .strictObject({ coupon_id: catalogueId.optional(), coupon_code: couponCode.optional() })
  .superRefine((discount, ctx) => {
    if ((discount.coupon_id === undefined) === (discount.coupon_code === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['coupon_id'], message: 'Give either coupon_id or coupon_code.', params: { type: 'INVALID' } });
    }
  });

export type DiscountRequest = z.output<typeof discountRequest>;

export const discountsRequest = z
  .array(discountRequest)
  .max(MAX_DISCOUNTS)
  .meta({ description: 'Coupons by id or code. PERCENTAGE ones apply first, each on what the previous left, then AMOUNT ones.' });

/** `metadata` as on customers: string values, at most 50 keys. */
export { metadata } from '../customers/schemas';

/* ---------- the record (section 2.3) ---------- */

const amountDetailsObject = z.object({
  subtotal: z.number().int(),
  discount: z.number().int(),
  taxable: z.number().int(),
  tax: z.number().int(),
});

export const invoiceLineItemObject = z.object({
  id: z.string().meta({ description: 'Prefix `ili_`; new ids whenever an update replaces the lines.' }),
  product_price_id: z.string().optional(),
  description: z.string().optional(),
  amount: z.number().int().meta({ description: 'Unit amount, minor units.' }),
  currency: z.string(),
  quantity: z.number().int(),
  amount_details: amountDetailsObject,
  tax: z.object({ category_id: z.string().optional(), mode: z.enum(TAX_MODES), rate: z.number() }).optional(),
});

export const invoiceCustomerObject = z.object({
  id: z.string(),
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  email: z.string().optional(),
  phone: z.string().optional(),
  address: addressObject.optional(),
  tax: z.object({ taxability: z.enum(['EXEMPT', 'TAXABLE']) }),
});

export const invoiceDiscountObject = z.object({
  coupon_id: z.string(),
  coupon_code: z.string(),
  calculation_type: calculationType,
  calculation_value: z.number().meta({ description: 'Percent for PERCENTAGE, minor units for AMOUNT.' }),
});

export const invoiceObject = z
  .object({
    id: z.string(),
    channel_id: z.string().meta({ description: 'The channel of the invoice’s customer.' }),
    status: invoiceStatus,
    currency: z.string(),
    total_amount: z.number().int(),
    amount_due: z.number().int().optional().meta({ description: 'Still owed: total − paid; 0 once VOIDED.' }),
    amount_details: amountDetailsObject.optional(),
    line_items: z.array(invoiceLineItemObject),
    customer: invoiceCustomerObject.meta({ description: 'The live customer while DRAFT; frozen at finalization.' }),
    subscription_id: z.string().optional(),
    billing_reason: z.enum(BILLING_REASONS),
    collection_method: collectionMethod,
    payment_instrument_id: z.string().optional(),
    due_at: dateTime.optional(),
    discounts: z.array(invoiceDiscountObject),
    notes: z.string().optional(),
    merchant_reference: z.string().optional(),
    metadata: z.record(z.string(), z.string()).optional(),
    pdf_url: z.string().optional(),
    finalized_at: dateTime.optional(),
    paid_at: dateTime.optional(),
    voided_at: dateTime.optional(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'Invoice' });

export type InvoiceObject = z.infer<typeof invoiceObject>;
export type InvoiceCustomer = z.infer<typeof invoiceCustomerObject>;

/** What `invoices.discounts` stores: the coupon as it was applied, so a later coupon change cannot alter an invoice. */
export interface StoredDiscount {
  coupon_id: string;
  coupon_code: string;
  calculation_type: 'PERCENTAGE' | 'AMOUNT';
  calculation_value: number;
}

export const invoiceSelect = {
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
  lineItems: { orderBy: { position: 'asc' } },
} as const satisfies Prisma.InvoiceSelect;

export type InvoiceRow = Prisma.InvoiceGetPayload<{ select: typeof invoiceSelect }>;

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
  const address = customer.address as Address | null;
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

/** The section 2.3 invoice, as every invoice operation answers and every invoice event carries. */
export function serializeInvoice(row: InvoiceRow, options: SerializeOptions): InvoiceObject {
  let customer = row.customerSnapshot as InvoiceCustomer | null;
  if (customer === null) {
    if (!options.customer) throw new Error(`Invoice ${row.id} has no snapshot yet: pass its live customer.`);
    customer = customerSnapshotOf(options.customer);
  }
  const pdfUrl = row.status === 'DRAFT' ? undefined : invoicePdfUrl(row.id, options.now);
  return {
    id: row.id,
    channel_id: row.channelId,
    status: row.status as InvoiceObject['status'],
    currency: row.currency,
    total_amount: row.totalAmount,
    ...(options.deleted ? {} : { amount_due: row.amountDue, amount_details: row.amountDetails as unknown as AmountDetails }),
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
    ...present('metadata', row.metadata as Record<string, string> | null),
    ...present('pdf_url', pdfUrl),
    ...present('finalized_at', row.finalizedAt && formatDateTime(row.finalizedAt)),
    ...present('paid_at', row.paidAt && formatDateTime(row.paidAt)),
    ...present('voided_at', row.voidedAt && formatDateTime(row.voidedAt)),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
