/** The /v2 objects the dashboard shows (section 2 of the spec; the OpenAPI document at /openapi.json). */
export interface ApiKey {
  id: string;
  name: string;
  description?: string;
  rotate_at?: string;
  channel_ids: string[];
  permissions: string[];
  created_at: string;
  updated_at: string;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  description?: string;
  status: 'INACTIVE' | 'ACTIVE' | 'DISABLED';
  disabled_reason?: string;
  event_types: string[];
  channel_id?: string;
  rotate_at?: string;
  created_at: string;
  updated_at: string;
}

export interface DeliveryAttempt {
  id: string;
  attempt: number;
  status: 'SUCCEEDED' | 'FAILED';
  response_status?: number;
  error?: string;
  duration_ms: number;
  requested_at: string;
}

export interface Delivery {
  id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempt_count: number;
  next_attempt_at?: string;
  delivered_at?: string;
  created_at: string;
  updated_at: string;
  attempts: DeliveryAttempt[];
}

export interface Customer {
  id: string;
  channel_id: string;
  email: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  merchant_customer_id?: string;
  status: string;
  type?: string;
  business_details?: { name?: string };
  created_at: string;
}

export interface PaymentInstrument {
  id: string;
  type: string;
  status: string;
  card: { brand: string; last4: string; exp_month: number; exp_year: number };
  created_at: string;
}

export interface InvoiceLine {
  id: string;
  description?: string;
  amount: number;
  currency: string;
  quantity: number;
  amount_details?: { subtotal?: number; discount?: number; tax?: number; total?: number };
}

export interface Invoice {
  id: string;
  channel_id: string;
  status: string;
  currency: string;
  total_amount: number;
  amount_due?: number;
  amount_details?: { subtotal: number; discount: number; taxable: number; tax: number };
  line_items: InvoiceLine[];
  customer: { id: string; email?: string; first_name?: string; last_name?: string };
  subscription_id?: string;
  collection_method: string;
  payment_instrument_id?: string;
  due_at?: string;
  pdf_url?: string;
  finalized_at?: string;
  paid_at?: string;
  voided_at?: string;
  created_at: string;
}

export interface Refund {
  id: string;
  amount: number;
  currency: string;
  reason?: string;
  status: string;
  created_at: string;
}

export interface Subscription {
  id: string;
  channel_id: string;
  status: string;
  currency: string;
  customer_id: string;
  latest_invoice_id?: string;
  started_at?: string;
  start_scheduled_at?: string;
  next_billing_at?: string;
  ends_at?: string;
  trial_info?: { type: string; period: { start_at: string; end_at?: string } };
  cancellation_info?: { cancel_at: string; requested_at: string; reason: string; comment?: string; mode: string };
  line_items: { id: string; amount: number; currency: string; quantity: number; product_info?: { name?: string } }[];
  created_at: string;
  updated_at: string;
}

export interface Report {
  id: string;
  report_type: string;
  status: string;
  date_from: string;
  date_to: string;
  channel_ids: string[];
  row_count?: number;
  byte_size?: number;
  failure_reason?: string;
  created_at: string;
  expires_at: string;
}

export interface Settlement {
  id: string;
  provider_settlement_id?: string;
  provider: string;
  legal_entity_id: string;
  amount: number;
  currency: string;
  settlement_date: string;
  period_from?: string;
  period_to?: string;
  files: { type: string; status: string; download_url?: string }[];
}

export interface MonthlyStatement {
  id: string;
  provider_statement_id?: string;
  provider: string;
  legal_entity_id: string;
  currency?: string;
  period_from?: string;
  period_to?: string;
  uploaded_at?: string;
  created_at: string;
}
