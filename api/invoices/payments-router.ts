import { router } from '../trpc';
import { listInvoicePaymentsProcedure } from './list-payments';
import { listInvoiceRefundsProcedure } from './list-refunds';
import { payInvoice } from './pay';
import { refundInvoice } from './refund';

/** Collecting money: pay, refund, and the payments and refunds made. */
export const invoicePaymentsRouter = router({
  pay: payInvoice,
  refund: refundInvoice,
  'list-payments': listInvoicePaymentsProcedure,
  'list-refunds': listInvoiceRefundsProcedure,
});
