import { AGGREGATIONS } from '../../domain/usage/meters';
import { z } from 'zod';
import { metadataObject } from '../common/metadata';
import { hasAtMostFourDecimals, MAX_INVOICE_AMOUNT, TAX_MODES, type TaxMode } from '../../domain/invoice-amounts';
import { INVOICE_STATUSES } from '../../domain/invoice-status';
import { COLLECTION_METHODS, type CollectionMethod } from '../../domain/collection-methods';
import { BILLING_REASONS, type BillingReason } from '../../domain/billing-reasons';
import { dateTime, prefixedId } from '../common/schemas';
import { calculationType, couponCode } from '../coupons/schemas';
import { addressObject } from '../customers/schemas';
import { MAX_PRICE_AMOUNT } from '../product-prices/schemas';
import { catalogueId } from '../products/schemas';
import { INVOICE_PDF_URL_TTL_SECONDS } from '../../services/invoices/pdf-url';

export { COLLECTION_METHODS, type CollectionMethod };

/** Limits the spec leaves open (section 8), documented in docs/invoices.md. */
export const MAX_LINE_ITEMS = 100;
export const MAX_QUANTITY = 100_000;
export const MAX_DISCOUNTS = 10;
export { MAX_INVOICE_AMOUNT };

export { BILLING_REASONS, type BillingReason };
export { TAX_MODES, type TaxMode };

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
  .meta({ multipleOf: 0.0001, description: 'Percent, for example 7.5; up to four decimals.' });

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
    description: z.string().trim().min(1).regex(/\S/).max(500).optional().meta({ description: 'Required with `amount`; defaults to the product name for a price.' }),
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
  })
  .meta({
    oneOf: [
      { required: ['product_price_id'], not: { required: ['amount'] } },
      { required: ['amount', 'description'], not: { required: ['product_price_id'] } },
    ],
  });

export type LineItemRequest = z.output<typeof lineItemRequest>;

export const lineItemsRequest = z.array(lineItemRequest).max(MAX_LINE_ITEMS);

export const discountRequest = z
  .strictObject({ coupon_id: catalogueId.optional(), coupon_code: couponCode.optional() })
  .superRefine((discount, ctx) => {
    if ((discount.coupon_id === undefined) === (discount.coupon_code === undefined)) {
      ctx.addIssue({ code: 'custom', path: ['coupon_id'], message: 'Give either coupon_id or coupon_code.', params: { type: 'INVALID' } });
    }
  })
  .meta({ oneOf: [{ required: ['coupon_id'] }, { required: ['coupon_code'] }] });

export type DiscountRequest = z.output<typeof discountRequest>;

export const discountsRequest = z
  .array(discountRequest)
  .max(MAX_DISCOUNTS)
  .meta({ description: 'Coupons by id or code. PERCENTAGE ones apply first, each on what the previous left, then AMOUNT ones.' });

export { metadata } from '../common/metadata';

/* ---------- the record (section 2.3) ---------- */

const amountDetailsObject = z.object({
  subtotal: z.number().int(),
  discount: z.number().int(),
  taxable: z.number().int(),
  tax: z.number().int(),
});

const invoiceAmountDetailsObject = amountDetailsObject.extend({
  balance_applied: z.number().int().meta({
    description: 'Customer balance taken into `amount_due` at finalization: credit (> 0) lowers it, debit (< 0) raises it (docs/customer-balance.md).',
  }),
  balance_credited: z.number().int().meta({ description: 'A negative total, credited to the customer balance at finalization (> 0).' }),
});

const usageTierObject = z.object({
  tier: z.number().int(),
  from: z.string().meta({ description: 'Decimal: the first unit of the tier is the one after this.' }),
  up_to: z.string().nullable(),
  quantity: z.string().meta({ description: 'Decimal: the units this tier charged.' }),
  unit_amount_decimal: z.string(),
  flat_amount: z.number().int(),
  amount_decimal: z.string().meta({ description: 'Exact, before the line is rounded half up once; minor units.' }),
  packages: z.number().int().optional(),
});

/** Extension (docs/usage.md, "Invoices"): present on the lines a usage price bills. */
const usageLineObject = z
  .object({
    kind: z.enum(['PERIOD', 'ADJUSTMENT']).meta({ description: 'ADJUSTMENT: late events of a period an earlier invoice billed.' }),
    meter_id: z.string(),
    aggregation: z.enum(AGGREGATIONS),
    period: z.object({ start_at: dateTime, end_at: dateTime }),
    quantity: z.string().meta({ description: 'Decimal: the whole period as measured when this invoice was issued.' }),
    tiers: z.array(usageTierObject),
    previously_billed: z.object({ quantity: z.string(), amount: z.number().int() }).optional(),
  })
  .meta({ id: 'InvoiceLineUsage' });

export const invoiceLineItemObject = z.object({
  id: z.string().meta({ description: 'Prefix `ili_`; new ids whenever an update replaces the lines.' }),
  product_price_id: z.string().optional(),
  description: z.string().optional(),
  amount: z.number().int().meta({ description: 'Unit amount, minor units.' }),
  currency: z.string(),
  quantity: z.number().int(),
  amount_details: amountDetailsObject,
  tax: z.object({ category_id: z.string().optional(), mode: z.enum(TAX_MODES), rate: z.number() }).optional(),
  usage: usageLineObject.optional(),
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
    amount_due: z
      .number()
      .int()
      .optional()
      .meta({ description: 'Still owed: total − balance_applied − paid, never below 0 (0 for a negative total); 0 once VOIDED.' }),
    amount_details: invoiceAmountDetailsObject.optional(),
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
    metadata: metadataObject.optional(),
    pdf_url: z
      .string()
      .optional()
      .meta({
        description: `Signed link to the PDF, opened without an API key; valid ${INVOICE_PDF_URL_TTL_SECONDS / 86_400} days from the answer or event that carries it (docs/invoice-pdf.md). Absent for a DRAFT.`,
      }),
    hosted_invoice_url: z
      .string()
      .optional()
      .meta({
        description:
          'Extension: the public page where the customer reads the invoice, downloads its PDF and, while it is OPEN, DUNNING or UNPAID, pays it, without signing in (docs/portal.md). Signed, it does not expire; rotating URL_SIGNING_KEY cuts it off. Absent for a DRAFT, and when the platform has no URL_SIGNING_KEY.',
      }),
    finalized_at: dateTime.optional(),
    paid_at: dateTime.optional(),
    voided_at: dateTime.optional(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'Invoice' });

export type InvoiceObject = z.infer<typeof invoiceObject>;
export type InvoiceCustomer = z.infer<typeof invoiceCustomerObject>;

/** Reading and serialising a stored invoice is the services' business; answers and events share it. */
export {
  customerSnapshotOf,
  invoiceSelect,
  serializeInvoice,
  type InvoiceRow,
  type SerializeOptions,
  type SnapshotSource,
  type StoredDiscount,
} from '../../services/invoices/invoice-object';
