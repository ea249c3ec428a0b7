import type { Metadata } from '../../domain/metadata';

/**
 * The customer object of section 2.2 as the services produce it. The zod `customerObject` in
 * api/customers/schemas.ts describes the same shape for transport; tRPC checks the services'
 * answers against it. Type aliases, not interfaces: Prisma takes them as JSON columns.
 */
export type Address = {
  city?: string;
  country?: string;
  line1?: string;
  line2?: string;
  state?: string;
  postal_code?: string;
};

export type LegalAddress = {
  city: string;
  country: string;
  line1: string;
  line2?: string;
  state?: string;
  postal_code: string;
};

export type Taxability = 'EXEMPT' | 'TAXABLE';

export type TaxRegistrationObject = {
  scheme: 'VAT';
  id: string;
  country: string;
  validation?: { status: 'UNVERIFIED' | 'VERIFIED'; validated_at: string; source: 'VIES' | 'MANUAL' };
};

export type Tax = { taxability: Taxability; registrations?: TaxRegistrationObject[] };

export type Configuration = {
  default_billing_currency?: string;
  default_payment_instrument_id?: string;
  preferred_locales?: string[];
};

export type BusinessDetails = { name: string; legal_address?: LegalAddress };

type CustomerFields = {
  id: string;
  channel_id: string;
  email: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  merchant_customer_id?: string;
  address?: Address;
  tax: Tax;
  status: 'ACTIVE' | 'INACTIVE';
  configuration?: Configuration;
  metadata?: Metadata;
  /** Extension (docs/customer-balance.md): the balance per currency, left out without a ledger. */
  balances?: Record<string, number>;
  created_at: string;
  updated_at: string;
};

export type CustomerObject = (CustomerFields & { type: 'INDIVIDUAL' }) | (CustomerFields & { type: 'BUSINESS'; business_details?: BusinessDetails });
