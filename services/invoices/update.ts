import { nextStatus } from '../../domain/invoice-status';
import { requestHash } from '../../domain/request-hash';
import type { Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import type { Scope } from '../scope';
import { serializeInvoice, type InvoiceObject } from './invoice-object';
import type { DiscountRequest, LineItemRequest } from './invoice-requests';
import {
  checkPaymentInstrument,
  draftStateOf,
  findInvoiceCustomer,
  lockVisibleInvoice,
  resolveDiscounts,
  resolveLines,
  saveDraft,
  type DraftState,
} from './repository';
import type { Metadata } from '../../domain/metadata';

/** What invoices/update changes: a field left undefined is kept, `null` clears one that may be absent. */
export interface DraftChanges {
  lines?: readonly LineItemRequest[];
  discounts?: readonly DiscountRequest[] | null;
  collectionMethod?: DraftState['collectionMethod'];
  paymentInstrumentId?: string | null;
  dueAt?: Date | null;
  notes?: string | null;
  merchantReference?: string | null;
  metadata?: Metadata | null;
}

const keep = <T>(sent: T | undefined, current: T): T => (sent === undefined ? current : sent);

/** Canonical JSON sees a Date as `{}`, so the due date goes in as text. */
const fingerprint = (state: DraftState) => requestHash('invoice', { ...state, dueAt: state.dueAt?.toISOString() ?? null });

/**
 * invoices/update in the caller's transaction: a DRAFT only (INCOMPATIBLE_STATUS otherwise), the
 * fields given replaced and every amount recomputed, with InvoiceUpdated when something changed.
 */
export async function updateDraft(
  deps: { now: () => Date },
  tx: Prisma.TransactionClient,
  scope: Scope,
  invoiceId: string,
  changes: DraftChanges,
): Promise<InvoiceObject> {
  const { accountId } = scope;
  const row = await lockVisibleInvoice(tx, scope, invoiceId);
  nextStatus('update', row.status);
  const customer = await findInvoiceCustomer(tx, row.customerId);
  if (changes.paymentInstrumentId) await checkPaymentInstrument(tx, accountId, row.customerId, changes.paymentInstrumentId);

  const current = draftStateOf(row);
  const next: DraftState = {
    lines: changes.lines ? await resolveLines(tx, accountId, row.currency, changes.lines) : current.lines,
    discounts: changes.discounts === undefined ? current.discounts : await resolveDiscounts(tx, accountId, row.currency, changes.discounts ?? []),
    collectionMethod: keep(changes.collectionMethod, current.collectionMethod),
    paymentInstrumentId: keep(changes.paymentInstrumentId, current.paymentInstrumentId),
    dueAt: keep(changes.dueAt, current.dueAt),
    notes: keep(changes.notes, current.notes),
    merchantReference: keep(changes.merchantReference, current.merchantReference),
    metadata: keep(changes.metadata, current.metadata),
  };
  const now = deps.now();
  if (fingerprint(next) === fingerprint(current)) return serializeInvoice(row, { now, customer });

  const saved = await saveDraft(tx, row, next, changes.lines !== undefined, now);
  const invoice = serializeInvoice(saved, { now, customer });
  await recordEvent(tx, { accountId, channelId: saved.channelId, name: 'InvoiceUpdated', data: { invoice }, occurredAt: now });
  return invoice;
}
