import { router } from '../trpc';

/** Collecting money: pay and refund. */
export const invoicePaymentsRouter = router({});
