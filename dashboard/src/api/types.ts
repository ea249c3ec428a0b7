import type { components } from '../../../client';

/** The /v2 objects the dashboard shows, as the typed client (from the OpenAPI document) defines them. */
type Schemas = components['schemas'];

export type ApiKey = Schemas['ApiKey'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type Delivery = Schemas['WebhookDelivery'];
export type DeliveryAttempt = Delivery['attempts'][number];
export type Customer = Schemas['IndividualCustomer'] | Schemas['BusinessCustomer'];
export type PaymentInstrument = Schemas['PaymentInstrument'];
export type Invoice = Schemas['Invoice'];
export type InvoiceLine = Invoice['line_items'][number];
export type Refund = Schemas['InvoiceRefund'];
export type InvoicePayment = Schemas['InvoicePaymentRecord'];
export type BalanceTransaction = Schemas['CustomerBalanceTransaction'];
export type CreditNote = Schemas['CreditNote'];
export type CreditNotePreview = Schemas['CreditNotePreview'];
export type Subscription = Schemas['Subscription'];
export type SubscriptionStatusChange = Schemas['SubscriptionStatusChange'];
export type Report = Schemas['Report'];
export type Settlement = Schemas['Settlement'];
export type MonthlyStatement = Schemas['MonthlyStatement'];
export type Meter = Schemas['Meter'];
export type MeterVersion = Schemas['MeterVersion'];
export type MeterFilter = Meter['filters'][number];
export type Aggregation = Meter['aggregation'];
export type InvoicePreview = Schemas['InvoicePreview'];
export type InvoicePreviewLine = InvoicePreview['line_items'][number];
export type UsageSummary = Schemas['UsageSummary'];
export type ProductPrice = Schemas['ProductPrice'];
export type Product = Schemas['Product'];
