import { router } from '../trpc';

/** Draft to finalized to voided or deleted: create, update, finalize, void, delete, get, list. */
export const invoiceLifecycleRouter = router({});
