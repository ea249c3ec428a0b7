import { router } from '../trpc';
import { createCreditNote } from './create';
import { getCreditNote } from './get';
import { listCreditNotes } from './list';
import { previewCreditNote } from './preview';
import { voidCreditNote } from './void';

export const creditNotesRouter = router({
  preview: previewCreditNote,
  create: createCreditNote,
  get: getCreditNote,
  list: listCreditNotes,
  void: voidCreditNote,
});
