import { EXAMPLE_IDS } from '../openapi/example-ids';
import type { RequestExample, ResourceRequestExamples } from '../openapi/operation-types';

const credit = {
  invoice_id: EXAMPLE_IDS.invoice,
  lines: [{ line_item_id: EXAMPLE_IDS.invoiceLineItem, quantity: 1 }],
  reason: 'PRODUCT_UNSATISFACTORY',
  memo: 'One of three licences was never activated.',
} satisfies RequestExample<'credit-notes', 'create'>;

export const creditNoteRequestExamples = {
  preview: credit,
  create: credit,
  get: { id: EXAMPLE_IDS.creditNote },
  list: { pagination: { page_size: 20 } },
  void: { id: EXAMPLE_IDS.creditNote },
} satisfies ResourceRequestExamples<'credit-notes'>;
