import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import type { Scope } from '../scope';
import type { InvoiceObject } from './invoice-object';
import { checkPaymentInstrument, createInvoiceRecord, findAccountInvoiceCustomer, resolveDiscounts, resolveLines, type DraftState } from './repository';
import type { DiscountRequest, LineItemRequest } from './invoice-requests';

type Transaction = Prisma.TransactionClient;

/**
 * The customer an invoice is for, as the caller may see it. A customer the caller cannot see is
 * a reference to nothing: 422 CUSTOMER_NOT_FOUND, like any other id a body names.
 */
export async function invoiceCustomerIn(tx: Transaction, scope: Scope, customerId: string) {
  const customer = await findAccountInvoiceCustomer(tx, scope.accountId, customerId);
  if (!customer || (scope.channels !== null && !scope.channels.includes(customer.channelId))) {
    throw new ApiError('CUSTOMER_NOT_FOUND', `Customer ${customerId} does not exist.`, { field: 'customer_id', customer_id: customerId });
  }
  return customer;
}

export interface NewDraft extends Omit<DraftState, 'lines' | 'discounts'> {
  customerId: string;
  currency: string;
  lines: readonly LineItemRequest[];
  discounts: readonly DiscountRequest[];
}

/** invoices/create in the caller's transaction: a DRAFT in the customer's channel, billing reason MANUAL, with InvoiceCreated. */
export async function createDraft(deps: { now: () => Date }, tx: Transaction, scope: Scope, draft: NewDraft): Promise<InvoiceObject> {
  const { accountId } = scope;
  const customer = await invoiceCustomerIn(tx, scope, draft.customerId);
  if (draft.paymentInstrumentId) await checkPaymentInstrument(tx, accountId, customer.id, draft.paymentInstrumentId);
  const lines = await resolveLines(tx, accountId, draft.currency, draft.lines);
  const discounts = await resolveDiscounts(tx, accountId, draft.currency, draft.discounts);
  const { object } = await createInvoiceRecord(tx, {
    accountId,
    customer,
    currency: draft.currency,
    billingReason: 'MANUAL',
    state: {
      lines,
      discounts,
      collectionMethod: draft.collectionMethod,
      paymentInstrumentId: draft.paymentInstrumentId,
      dueAt: draft.dueAt,
      notes: draft.notes,
      merchantReference: draft.merchantReference,
      metadata: draft.metadata,
    },
    now: deps.now(),
  });
  return object;
}
