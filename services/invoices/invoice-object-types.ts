import type { BillingReason } from '../../domain/billing-reasons';
import type { CollectionMethod } from '../../domain/collection-methods';
import type { AmountDetails, TaxMode } from '../../domain/invoice-amounts';
import type { InvoiceStatus } from '../../domain/invoice-status';
import type { StoredDiscount } from './invoice-object';
import type { Metadata } from '../../domain/metadata';

/**
 * The invoice object of section 2.3 as the services produce it. The zod `invoiceObject` in
 * api/invoices/schemas.ts describes the same shape for transport; tRPC checks the services'
 * answers against it. Type aliases, not interfaces: Prisma takes them as JSON (the customer snapshot).
 */
export type InvoiceAddress = {
  city?: string;
  country?: string;
  line1?: string;
  line2?: string;
  state?: string;
  postal_code?: string;
};

export type InvoiceCustomer = {
  id: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string;
  address?: InvoiceAddress;
  tax: { taxability: 'EXEMPT' | 'TAXABLE' };
};

/**
 * The invoice-level amounts: the lines' sums and what the customer balance did at finalization
 * (docs/customer-balance.md). Both balance fields are 0 until then, and on invoices finalized
 * before the ledger existed.
 */
export type InvoiceAmountDetails = AmountDetails & {
  /** Credit (> 0) or debit (< 0) of the customer balance taken into `amount_due`. */
  balance_applied: number;
  /** A negative total's magnitude, credited to the customer balance. */
  balance_credited: number;
};

export type InvoiceLineItem = {
  id: string;
  product_price_id?: string;
  description?: string;
  amount: number;
  currency: string;
  quantity: number;
  amount_details: AmountDetails;
  tax?: { category_id?: string; mode: TaxMode; rate: number };
};

export type InvoiceObject = {
  id: string;
  channel_id: string;
  status: InvoiceStatus;
  currency: string;
  total_amount: number;
  amount_due?: number;
  amount_details?: InvoiceAmountDetails;
  line_items: InvoiceLineItem[];
  customer: InvoiceCustomer;
  subscription_id?: string;
  billing_reason: BillingReason;
  collection_method: CollectionMethod;
  payment_instrument_id?: string;
  due_at?: string;
  discounts: StoredDiscount[];
  notes?: string;
  merchant_reference?: string;
  metadata?: Metadata;
  pdf_url?: string;
  /** Extension: the public page to read and pay the invoice (docs/portal.md); absent for a DRAFT. */
  hosted_invoice_url?: string;
  finalized_at?: string;
  paid_at?: string;
  voided_at?: string;
  created_at: string;
  updated_at: string;
};
