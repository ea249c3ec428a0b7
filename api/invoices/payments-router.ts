import { router } from '../trpc';
import { listInvoicePaymentsProcedure } from './list-payments';
import { payInvoice } from './pay';
import { refundInvoice } from './refund';

/** Collecting money: pay, refund, and the payments made. */
export const invoicePaymentsRouter = router({
  pay: payInvoice,
  refund: refundInvoice,
  'list-payments': listInvoicePaymentsProcedure,
});
