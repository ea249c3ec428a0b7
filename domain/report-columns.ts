import { escapeFormula } from './csv-formulae';

/**
 * The CSV columns of section 2.8, in the spec's order, and the mappers from one line item with
 * its parent record to one row of cells. Absent values are empty cells (null); JSON columns
 * hold the JSON text of the value; date-times arrive already in the API's form (six
 * fractional digits, Z) because the database formats them without losing microseconds.
 */

export const REPORT_TYPES = ['INVOICES', 'SUBSCRIPTIONS'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export type Cell = string | number | null;

export const INVOICE_REPORT_COLUMNS = [
  'id',
  'status',
  'currency',
  'total_amount',
  'notes',
  'merchant_reference',
  'pdf_url',
  'created_at',
  'updated_at',
  'due_at',
  'customer_id',
  'customer_first_name',
  'customer_last_name',
  'customer_email',
  'customer_phone',
  'customer_address_city',
  'customer_address_country',
  'customer_address_line1',
  'customer_address_line2',
  'customer_address_state',
  'customer_address_postal_code',
  'customer_tax_taxability',
  'amount_details_subtotal',
  'amount_details_discount',
  'amount_details_taxable',
  'amount_details_tax',
  'discounts',
  'line_item_product_price_id',
  'line_item_description',
  'line_item_amount',
  'line_item_currency',
  'line_item_quantity',
  'line_item_amount_details_subtotal',
  'line_item_amount_details_discount',
  'line_item_amount_details_taxable',
  'line_item_amount_details_tax',
  'line_item_tax_category_id',
  'line_item_tax_mode',
  'line_item_tax_rate',
] as const;

export const SUBSCRIPTION_REPORT_COLUMNS = [
  'id',
  'customer_id',
  'status',
  'currency',
  'description',
  'payment_instrument_id',
  'latest_invoice_id',
  'merchant_reference',
  'created_at',
  'updated_at',
  'started_at',
  'next_billing_at',
  'anchor_at',
  'trial_info_type',
  'trial_info_amount',
  'trial_info_period_start_at',
  'trial_info_period_end_at',
  'trial_info_period_config_value',
  'trial_info_period_config_unit',
  'cancellation_info_cancel_at',
  'cancellation_info_requested_at',
  'cancellation_info_reason',
  'cancellation_info_comment',
  'discounts',
  'metadata',
  'line_item_id',
  'line_item_product_id',
  'line_item_product_price_id',
  'line_item_billing_type',
  'line_item_currency',
  'line_item_amount',
  'line_item_quantity',
  'line_item_started_at',
  'line_item_period_start_at',
  'line_item_period_end_at',
  'line_item_billing_period_config_value',
  'line_item_billing_period_config_unit',
  'line_item_product_info_name',
  'line_item_product_info_description',
  'line_item_created_at',
  'line_item_updated_at',
] as const;

export const REPORT_COLUMNS: Record<ReportType, readonly string[]> = {
  INVOICES: INVOICE_REPORT_COLUMNS,
  SUBSCRIPTIONS: SUBSCRIPTION_REPORT_COLUMNS,
};

/**
 * Columns whose text a merchant or its customer typed freely: written escaped against formula
 * injection (domain/csv-formulae.ts). Ids, enums, amounts, date-times and validated codes
 * (country) are written as stored, so a negative amount such as `-100` stays a number. The
 * customer's phone is both: E.164 as stored, else (kept as written) escaped (`phoneCell`).
 */
export const FREE_TEXT_COLUMNS: Record<ReportType, readonly string[]> = {
  INVOICES: [
    'notes',
    'merchant_reference',
    'customer_first_name',
    'customer_last_name',
    'customer_email',
    'customer_address_city',
    'customer_address_line1',
    'customer_address_line2',
    'customer_address_state',
    'customer_address_postal_code',
    'discounts',
    'line_item_description',
  ] satisfies (typeof INVOICE_REPORT_COLUMNS)[number][],
  SUBSCRIPTIONS: [
    'description',
    'merchant_reference',
    'cancellation_info_comment',
    'discounts',
    'metadata',
    'line_item_product_info_name',
    'line_item_product_info_description',
  ] satisfies (typeof SUBSCRIPTION_REPORT_COLUMNS)[number][],
};

interface CustomerSnapshot {
  id: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string;
  address?: { city?: string; country?: string; line1?: string; line2?: string; state?: string; postal_code?: string };
  tax: { taxability: string };
}

/**
 * One invoice as the export reads it: the first columns of each of its rows, the same for
 * every line item of the invoice.
 */
export interface InvoiceReportSource {
  id: string;
  status: string;
  currency: string;
  totalAmount: number;
  notes: string | null;
  merchantReference: string | null;
  pdfUrl: string | null;
  createdAt: string;
  updatedAt: string;
  dueAt: string | null;
  /** The snapshot frozen at finalization, or for a DRAFT the live customer in the same shape. */
  customer: CustomerSnapshot;
  amountDetails: { subtotal: number; discount: number; taxable?: number; tax?: number };
  discounts: ReadonlyArray<{ coupon_id?: string; coupon_code?: string }>;
}

/** One invoice line item: the last columns of its row. */
export interface InvoiceLineReportSource {
  productPriceId: string | null;
  description: string | null;
  amount: number;
  currency: string;
  quantity: number;
  subtotal: number;
  discount: number;
  taxable: number;
  tax: number;
  taxCategoryId: string | null;
  taxMode: string | null;
  /** Percent, as the API writes it: 19, 7.5. */
  taxRate: number | null;
}

/** One subscription line item with its subscription, as the export reads it. */
export interface SubscriptionReportSource {
  id: string;
  customerId: string;
  status: string;
  currency: string;
  description: string | null;
  paymentInstrumentId: string | null;
  latestInvoiceId: string | null;
  merchantReference: string | null;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  nextBillingAt: string | null;
  anchorAt: string | null;
  /** Section 2.4 trial_info as served, with the trial's own period_config when it has one. */
  trialInfo: {
    type?: string;
    amount?: number;
    period?: { start_at?: string; end_at?: string };
    period_config?: { value?: number; unit?: string };
  } | null;
  cancellationInfo: { cancel_at?: string; requested_at?: string; reason?: string; comment?: string } | null;
  discounts: unknown;
  metadata: unknown;
  line: {
    id: string;
    productId: string;
    productPriceId: string;
    billingType: string;
    currency: string;
    amount: number;
    quantity: number;
    startedAt: string | null;
    periodStartAt: string;
    periodEndAt: string | null;
    billingPeriodValue: number | null;
    billingPeriodUnit: string | null;
    productName: string;
    productDescription: string | null;
    createdAt: string;
    updatedAt: string;
  };
}

/**
 * Section 2.2 gives a phone no format: one that is no valid number is kept as written, and may
 * start like a formula. E.164 (`+` and digits, a number at worst) is written as stored.
 */
function phoneCell(phone: string | undefined): Cell {
  if (phone === undefined) return null;
  return /^\+\d+$/.test(phone) ? phone : escapeFormula(phone);
}

function cell(value: string | number | null | undefined): Cell {
  return value ?? null;
}

function json(value: unknown): Cell {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/** Section 2.8: the invoice discounts column carries coupon_id and coupon_code of each. */
function invoiceDiscounts(discounts: InvoiceReportSource['discounts']): Cell {
  return JSON.stringify(discounts.map((d) => ({ coupon_id: d.coupon_id, coupon_code: d.coupon_code })));
}

/**
 * An INVOICES row is the invoice's cells followed by its line item's: the export computes the
 * invoice's once and reuses them for each of its line items.
 */
export function invoiceReportCells(source: InvoiceReportSource): Cell[] {
  const { customer } = source;
  const address = customer.address ?? {};
  return [
    source.id,
    source.status,
    source.currency,
    source.totalAmount,
    source.notes,
    source.merchantReference,
    source.pdfUrl,
    source.createdAt,
    source.updatedAt,
    source.dueAt,
    customer.id,
    cell(customer.first_name),
    cell(customer.last_name),
    cell(customer.email),
    phoneCell(customer.phone),
    cell(address.city),
    cell(address.country),
    cell(address.line1),
    cell(address.line2),
    cell(address.state),
    cell(address.postal_code),
    customer.tax.taxability,
    source.amountDetails.subtotal,
    source.amountDetails.discount,
    cell(source.amountDetails.taxable),
    cell(source.amountDetails.tax),
    invoiceDiscounts(source.discounts),
  ];
}

export function invoiceLineReportCells(line: InvoiceLineReportSource): Cell[] {
  return [
    line.productPriceId,
    line.description,
    line.amount,
    line.currency,
    line.quantity,
    line.subtotal,
    line.discount,
    line.taxable,
    line.tax,
    line.taxCategoryId,
    line.taxMode,
    line.taxRate,
  ];
}

export function subscriptionReportRow(source: SubscriptionReportSource): Cell[] {
  const trial = source.trialInfo;
  const cancellation = source.cancellationInfo;
  const { line } = source;
  return [
    source.id,
    source.customerId,
    source.status,
    source.currency,
    source.description,
    source.paymentInstrumentId,
    source.latestInvoiceId,
    source.merchantReference,
    source.createdAt,
    source.updatedAt,
    source.startedAt,
    source.nextBillingAt,
    source.anchorAt,
    cell(trial?.type),
    cell(trial?.amount),
    cell(trial?.period?.start_at),
    cell(trial?.period?.end_at),
    cell(trial?.period_config?.value),
    cell(trial?.period_config?.unit),
    cell(cancellation?.cancel_at),
    cell(cancellation?.requested_at),
    cell(cancellation?.reason),
    cell(cancellation?.comment),
    json(source.discounts),
    json(source.metadata),
    line.id,
    line.productId,
    line.productPriceId,
    line.billingType,
    line.currency,
    line.amount,
    line.quantity,
    line.startedAt,
    line.periodStartAt,
    line.periodEndAt,
    line.billingPeriodValue,
    line.billingPeriodUnit,
    line.productName,
    line.productDescription,
    line.createdAt,
    line.updatedAt,
  ];
}
