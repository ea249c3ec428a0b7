import type { Client } from '@temporalio/client';
import type { Database } from '../../prisma/client';
import { serializeInvoice } from '../invoices/invoice-object';
import { lockVisibleInvoice, visibleInvoice } from '../invoices/repository';
import type { TransactionRunner } from '../payments/collect';
import { signalInvoicePaid } from '../payments/paid-signals';
import type { RefundRegistry } from '../payments/providers/registry';
import { finishRefund } from '../payments/refunds';
import type { Scope } from '../scope';
import type { CreditNoteObject } from './credit-note-object';
import { issueCreditNote } from './issue';
import { planCreditNote, type CreditNoteInput } from './plan';

export interface CreditNoteDependencies {
  db: Database;
  temporal: Client;
  now: () => Date;
  /** The sandbox registry unless given. */
  providers?: RefundRegistry;
}

/**
 * credit-notes/create (docs/credit-notes.md): plans and issues the note in `transaction` (the
 * caller's, which also stores its idempotency record), then, after the commit, asks the
 * provider for its refund and, when the note left the invoice owing nothing, tells a running
 * collection and the invoice's subscription that it is settled.
 */
export async function createCreditNote(deps: CreditNoteDependencies, scope: Scope, input: CreditNoteInput, transaction: TransactionRunner): Promise<CreditNoteObject> {
  // The transaction answers the note alone: under an Idempotency-Key that answer is what is stored and replayed.
  const note = await transaction(async (tx) => {
    const plan = await planCreditNote(tx, await lockVisibleInvoice(tx, scope, input.invoiceId), input);
    return (await issueCreditNote(tx, plan, { reason: input.reason, memo: input.memo, origin: 'API', now: deps.now() })).note;
  });
  // The provider answers once per refund key, and a refund left PENDING by a crash here is
  // finished by the payment sweeper (docs/invoice-payments.md, "Refunds").
  if (note.refund_id) await finishRefund(deps.db, note.refund_id, (work) => deps.db.$transaction(work), deps.now, deps.providers);
  if (note.pre_payment_amount > 0) {
    await signalInvoicePaid(deps.temporal, serializeInvoice(await visibleInvoice(deps.db, scope, note.invoice_id), { now: deps.now() }));
  }
  return note;
}
