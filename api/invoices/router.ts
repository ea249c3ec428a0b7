import { mergeRouters } from '../trpc';
import { invoiceLifecycleRouter } from './lifecycle-router';
import { invoicePaymentsRouter } from './payments-router';

export const invoicesRouter = mergeRouters(invoiceLifecycleRouter, invoicePaymentsRouter);
