/**
 * The payment and refund objects as the services produce them. The zod `paymentObject` and
 * `refundObject` in api/invoices/payments/schemas.ts describe the same shapes for transport.
 */
export type PaymentObject = {
  id?: string;
  status: 'SUCCEEDED' | 'DECLINED' | 'FAILED' | 'REQUIRES_ACTION' | 'PENDING';
  amount: number;
  currency: string;
  decline_code?: string;
  decline_message?: string;
  retryable: boolean;
  provider?: string;
  provider_reference?: string;
  next_action_url?: string;
  payment_instrument_id?: string;
};

export type RefundObject = {
  id: string;
  invoice_id: string;
  payment_id: string;
  amount: number;
  currency: string;
  reason?: string;
  status: 'SUCCEEDED' | 'FAILED' | 'PENDING';
  provider: string;
  created_at: string;
};
