import { lacksTaxCountry } from '../../domain/tax-country';
import type { Client } from '@temporalio/client';
import { ApiError } from '../../domain/errors';
import { nextStatus } from '../../domain/invoice-status';
import type { Prisma } from '../../prisma/client';
import { outboxRow, recordEvent } from '../../prisma/outbox';
import { customerSnapshotOf, serializeInvoice, type InvoiceCustomerRow, type InvoiceObject, type InvoiceRow } from './invoice-object';
import { chargeableInstrument, chargedInstrumentId } from '../payment-instruments/chargeable-instrument';
import type { Scope } from '../scope';
import { startInvoiceCollection } from '../workflows/invoice-collection';
import { findInvoiceCustomer, lockAndReadVisibleInvoice } from './repository';
import { updateInvoiceColumns, withInvoiceColumns } from './invoice-columns-update';
import { planBalanceSettlement, recordBalanceSettlement } from '../customer-balance/finalization';

type Transaction = Prisma.TransactionClient;

/** One reason a draft cannot be issued (docs/invoices.md, "Finalization failures"). */
export interface FinalizationReason {
  code:
    | 'NO_LINE_ITEMS'
    | 'CUSTOMER_ADDRESS_COUNTRY_REQUIRED'
    | 'PAYMENT_INSTRUMENT_REQUIRED'
    | 'PAYMENT_INSTRUMENT_NOT_ACTIVE'
    | 'DUE_AT_IN_THE_PAST'
    | 'USAGE_CHARGE_TOO_LARGE';
  message: string;
}


async function finalizationReasons(
  tx: Transaction,
  row: InvoiceRow,
  customer: InvoiceCustomerRow,
  amountDue: number,
  now: Date,
  instrumentChecked: boolean,
): Promise<FinalizationReason[]> {
  const reasons: FinalizationReason[] = [];
  if (row.lineItems.length === 0) reasons.push({ code: 'NO_LINE_ITEMS', message: 'The invoice has no line items.' });
  const taxed = row.lineItems.some((line) => line.taxRate !== null && !line.taxRate.isZero());
  if (lacksTaxCountry(customer, taxed)) {
    reasons.push({
      code: 'CUSTOMER_ADDRESS_COUNTRY_REQUIRED',
      message: `Customer ${customer.id} is TAXABLE and the invoice charges tax, but the customer's address has no country.`,
    });
  }
  if (instrumentChecked && row.collectionMethod === 'CHARGE_AUTOMATICALLY' && amountDue > 0) {
    const instrumentId = chargedInstrumentId(row.paymentInstrumentId, customer);
    const verdict = instrumentId ? await chargeableInstrument(tx, { accountId: row.accountId, customerId: customer.id, instrumentId }) : undefined;
    if (!verdict || (!verdict.chargeable && verdict.reason === 'NOT_FOUND')) {
      reasons.push({
        code: 'PAYMENT_INSTRUMENT_REQUIRED',
        message: 'CHARGE_AUTOMATICALLY needs a payment instrument of the customer: the invoice names none and the customer has no default.',
      });
    } else if (!verdict.chargeable) {
      reasons.push({ code: 'PAYMENT_INSTRUMENT_NOT_ACTIVE', message: `Payment instrument ${instrumentId} is ${verdict.status}.` });
    }
  }
  if (row.dueAt && row.dueAt <= now) reasons.push({ code: 'DUE_AT_IN_THE_PAST', message: 'due_at has passed; move it or clear it.' });
  return reasons;
}

export class FinalizationRefused extends Error {
  constructor(readonly reasons: FinalizationReason[]) {
    super('Finalization refused.');
  }
}

export interface Finalized {
  row: InvoiceRow;
  invoice: InvoiceObject;
  /** CHARGE_AUTOMATICALLY with something to collect: the caller starts the collection. */
  charged: boolean;
}

/**
 * DRAFT → OPEN, or PAID at once when nothing is due, with InvoiceFinalized (+ InvoicePaid), in the
 * caller's transaction, the invoice locked. The customer balance in the invoice currency is
 * applied (credit lowers `amount_due`, debit raises it) and a negative total is credited to it,
 * under the balance's row lock (docs/customer-balance.md). Throws FinalizationRefused with every
 * reason it cannot be issued. Subscriptions pass `instrumentChecked: false`: their collection picks a
 * usable instrument at each attempt, and a cycle with none fails its payment instead. `customer`
 * is the live customer when the caller read it with the invoice, after the lock; else it is read here.
 */
export async function finalizeDraft(
  tx: Transaction,
  row: InvoiceRow,
  options: { now: Date; instrumentChecked?: boolean; customer?: InvoiceCustomerRow },
): Promise<Finalized> {
  const { now } = options;
  nextStatus('finalize', row.status);
  const customer = options.customer ?? (await findInvoiceCustomer(tx, row.customerId));
  const balance = await planBalanceSettlement(tx, row);
  const reasons = await finalizationReasons(tx, row, customer, balance.amountDue, now, options.instrumentChecked ?? true);
  if (reasons.length > 0) throw new FinalizationRefused(reasons);

  await recordBalanceSettlement(tx, row, balance, now);
  const status = balance.amountDue === 0 ? nextStatus('finalizeZeroTotal', row.status) : nextStatus('finalize', row.status);
  const charged = row.collectionMethod === 'CHARGE_AUTOMATICALLY' && status === 'OPEN';
  const change = {
    status,
    customerSnapshot: customerSnapshotOf(customer),
    finalizedAt: now,
    updatedAt: now,
    amountDue: balance.amountDue,
    amountDetails: { ...(row.amountDetails as object), balance_applied: balance.balanceApplied, balance_credited: balance.balanceCredited },
    ...(charged ? { paymentInstrumentId: chargedInstrumentId(row.paymentInstrumentId, customer) ?? null } : {}),
    ...(status === 'PAID' ? { paidAt: now } : {}),
  };
  // The answer and the events are built from the row as the update leaves it, so one statement
  // writes the invoice and its events.
  const invoice = serializeInvoice(withInvoiceColumns(row, change), { now });
  const event = { accountId: row.accountId, channelId: row.channelId, data: { invoice }, occurredAt: now };
  const events = [outboxRow({ ...event, name: 'InvoiceFinalized' }), ...(status === 'PAID' ? [outboxRow({ ...event, name: 'InvoicePaid' })] : [])];
  const saved = await updateInvoiceColumns(tx, row, change, events);
  return { row: saved, invoice, charged };
}


export interface FinalizeDependencies {
  temporal: Client;
  now: () => Date;
}

/**
 * invoices/finalize (docs/invoices.md) in the caller's transaction: the visible invoice locked,
 * finalized, and the collection of a CHARGE_AUTOMATICALLY one started before the commit.
 */
export async function finalizeInvoice(deps: FinalizeDependencies, tx: Transaction, scope: Scope, invoiceId: string): Promise<InvoiceObject> {
  const { row, customer } = await lockAndReadVisibleInvoice(tx, scope, invoiceId);
  const { row: saved, invoice, charged } = await finalizeDraft(tx, row, { now: deps.now(), customer });
  if (charged) await startInvoiceCollection(deps.temporal, saved);
  return invoice;
}

/** The refusal as the envelope carries it: 422 FINALIZATION_FAILED with every reason. */
export function finalizationFailed(invoiceId: string, reasons: FinalizationReason[]): ApiError {
  return new ApiError('FINALIZATION_FAILED', `Invoice ${invoiceId} cannot be finalized: ${reasons.map((r) => r.code).join(', ')}.`, { reasons });
}

/**
 * Records InvoiceFinalizationFailed for a refused finalization. The refusal rolls its own
 * transaction back, so the caller runs this in the one that stores the refusal: one failed
 * request records one event, however it is retried or duplicated under its Idempotency-Key.
 */
export async function recordFinalizationFailure(tx: Transaction, scope: Scope, invoiceId: string, reasons: FinalizationReason[], now: Date): Promise<void> {
  const { row, customer } = await lockAndReadVisibleInvoice(tx, scope, invoiceId);
  const invoice = serializeInvoice(row, { now, customer });
  await recordEvent(tx, {
    accountId: scope.accountId,
    channelId: row.channelId,
    name: 'InvoiceFinalizationFailed',
    data: { invoice, reasons },
    occurredAt: now,
  });
}
