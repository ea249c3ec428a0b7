import type { components } from '../../../client';
import type { PortalSettings } from '../../../domain/portal/settings';

/** The /v2 objects the portal shows, as the typed client (from the OpenAPI document) defines them. */
type Schemas = components['schemas'];

export type Customer = Schemas['IndividualCustomer'] | Schemas['BusinessCustomer'];
export type Address = NonNullable<Customer['address']>;
export type TaxRegistration = NonNullable<Customer['tax']['registrations']>[number];
export type PaymentInstrument = Schemas['PaymentInstrument'];
export type Invoice = Schemas['Invoice'];
export type InvoicePayResult = Schemas['InvoicePayResult'];
export type CreditNote = Schemas['CreditNote'];
export type Subscription = Schemas['Subscription'];
export type SubscriptionLine = Subscription['line_items'][number];
export type InvoicePreview = Schemas['InvoicePreview'];
export type ProductPrice = Schemas['ProductPrice'];
export type PeriodConfig = NonNullable<ProductPrice['billing_period_config']>;

export type { PortalSettings };

/** `publishable_key` is null while the account's Stripe connection has none stored: no card form can be shown then. */
export type PaymentProvider = { kind: 'SANDBOX' } | { kind: 'STRIPE'; publishable_key: string | null; js_url: string };

/** `session/me` (docs/portal.md, "The portal's operations"). */
export interface PortalSessionInfo {
  customer: Customer;
  account: { name: string };
  settings: PortalSettings;
  switchable_prices: (ProductPrice & { product_name: string })[];
  locale: string | null;
  return_url: string | null;
  payment_provider: PaymentProvider;
  csrf_token: string;
  session_expires_at: string;
}

export interface CursorPage<T> {
  data: T[];
  next_cursor: string | null;
}

export interface InstrumentList {
  data: PaymentInstrument[];
  default_payment_instrument_id: string | null;
  in_use: Record<string, string[]>;
}

/** `subscriptions/preview`: the `invoices/preview` answer. */
export interface SubscriptionPreview {
  subscription_id: string;
  update_invoice?: InvoicePreview | null;
  next_invoice: InvoicePreview | null;
}

export interface LineChange {
  line_item_id: string;
  quantity?: number;
  product_price_id?: string;
}

/** The sandbox card form's fields, as `payment-instruments/add-card` and `hosted-invoices/pay` take them. */
export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cardholder_name?: string;
}

/** `hosted-invoices/get` (docs/portal.md, "Hosted invoice pages"). */
export interface HostedInvoice {
  invoice: Invoice;
  account: { name: string };
  payment_provider: PaymentProvider;
}
