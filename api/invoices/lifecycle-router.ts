import { router } from '../trpc';
import { createInvoice } from './create';
import { deleteInvoice } from './delete';
import { finalizeInvoice } from './finalize';
import { getInvoice } from './get';
import { listInvoices } from './list';
import { previewInvoice } from './preview';
import { updateInvoice } from './update';
import { voidInvoice } from './void';

/** Draft to finalized to voided or deleted: create, update, finalize, void, delete, get, list. */
export const invoiceLifecycleRouter = router({
  create: createInvoice,
  update: updateInvoice,
  finalize: finalizeInvoice,
  void: voidInvoice,
  delete: deleteInvoice,
  get: getInvoice,
  list: listInvoices,
  preview: previewInvoice,
});
