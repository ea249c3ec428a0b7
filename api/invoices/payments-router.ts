import { router } from '../trpc';
import { payInvoice } from './pay';
import { refundInvoice } from './refund';

/** Collecting money: pay and refund. */
export const invoicePaymentsRouter = router({
  pay: payInvoice,
  refund: refundInvoice,
});
