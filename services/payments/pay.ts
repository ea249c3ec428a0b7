import type { Client } from '@temporalio/client';
import { ApiError } from '../../domain/errors';
import { formatDateTime } from '../../domain/datetime';
import { nextStatus } from '../../domain/invoice-status';
import type { Database } from '../../prisma/client';
import type { ProviderRegistry } from './providers/registry';
import { lockVisibleInvoiceToCharge } from '../invoices/repository';
import { chargeableInstrument } from '../payment-instruments/chargeable-instrument';
import { keyReaches, type Scope } from '../scope';
import { chargePayment, openPayment, type OpenedPayment } from './charge';
import { newPayChargeKey, parsePayChargeKey, payClaimAbandoned, type PayChargeKey } from './charge-keys';
import { withdrawWaitingPayments } from './waiting-for-action';
import { finishClaimedCharge, type ChargeTerms, type CollectDependencies, type TransactionRunner } from './collect';
import { signalInvoicePaid } from './paid-signals';
import { holdChargeGuard, type Settlement } from './settle';

export interface PayDependencies {
  db: Database;
  temporal: Client;
  now: () => Date;
  /** The sandbox registry unless given. */
  providers?: ProviderRegistry;
}

export interface PayInput {
  invoiceId: string;
  instrumentId: string;
  /** Identifies the request's (API key, Idempotency-Key) pair (requestTag): its retry resumes its own charge. */
  request?: string;
}

/**
 * A SEND_INVOICE invoice more than this long past its `due_at` can no longer be paid with an
 * instrument (INVOICE_OVERDUE): the terms it was issued on have lapsed, so the merchant voids it
 * and issues a new one. docs/invoice-payments.md.
 */
export const PAY_AFTER_DUE_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

type Claim = { key: string; instrumentId: string; terms: ChargeTerms; opened?: OpenedPayment } | { abandoned: PayChargeKey } | { awaitingAction: true };

/**
 * Locks the invoice and decides (docs/invoice-payments.md, checks in this order): INCOMPATIBLE_STATUS,
 * PAYMENT_INSTRUMENT_NOT_FOUND, PAYMENT_INSTRUMENT_NOT_ACTIVE, INVOICE_OVERDUE,
 * OPEN_PAYMENT_LIMIT_REACHED; then claims the invoice's charge guard under a new key. A claim
 * held by this very request (a retry under its Idempotency-Key) is returned to be resumed, and
 * one abandoned past its lease is handed back to be finished before this request is decided. A
 * new claim creates its payment in the same transaction (openPayment), so the claim's commit is
 * the only one before the provider is asked.
 */
async function claimCharge(deps: PayDependencies, scope: Scope, input: PayInput, takeOver: boolean): Promise<Claim> {
  const { request } = input;
  return deps.db.$transaction(async (tx) => {
    const now = deps.now();
    const row = await lockVisibleInvoiceToCharge(tx, scope, input.invoiceId);
    const held = row.paymentInProgressId;
    // The amount due cannot change while the claim is held: only settling a charge changes it.
    const terms: ChargeTerms = { accountId: row.accountId, customerId: row.customerId, amountDue: row.amountDue, currency: row.currency };
    const heldPay = held ? parsePayChargeKey(held) : undefined;
    if (heldPay && request && heldPay.request === request && heldPay.instrumentId === input.instrumentId) {
      return { key: heldPay.key, instrumentId: heldPay.instrumentId, terms };
    }
    if (heldPay && takeOver && payClaimAbandoned(heldPay, now)) return { abandoned: heldPay };
    // Withdrawn before anything else is decided: it may have paid the invoice already.
    if (row.awaitingAction && !held) return { awaitingAction: true };

    nextStatus('pay', row.status);
    const verdict = await chargeableInstrument(tx, {
      accountId: scope.accountId,
      customerId: row.customerId,
      instrumentId: input.instrumentId,
      visible: (channelId) => keyReaches(scope, channelId),
    });
    if (!verdict.chargeable && verdict.reason === 'NOT_FOUND') {
      throw new ApiError(
        'PAYMENT_INSTRUMENT_NOT_FOUND',
        `Payment instrument ${input.instrumentId} is not an instrument of the invoice's customer ${row.customerId}.`,
        { payment_instrument_id: input.instrumentId },
      );
    }
    if (!verdict.chargeable) {
      throw new ApiError('PAYMENT_INSTRUMENT_NOT_ACTIVE', `Payment instrument ${input.instrumentId} is ${verdict.status}, not ACTIVE.`, {
        payment_instrument_id: input.instrumentId,
        status: verdict.status,
      });
    }
    // A sent invoice in DUNNING is past due but still being collected (a subscription's grace): it
    // takes payment until its collection gives up, as an automatic one does.
    if (row.collectionMethod === 'SEND_INVOICE' && row.dueAt && row.status !== 'DUNNING') {
      const payableUntil = new Date(row.dueAt.getTime() + PAY_AFTER_DUE_DAYS * DAY_MS);
      if (now > payableUntil) {
        throw new ApiError(
          'INVOICE_OVERDUE',
          `The invoice was due at ${formatDateTime(row.dueAt)} and could be paid until ${formatDateTime(payableUntil)}; void it and issue a new one.`,
          { due_at: formatDateTime(row.dueAt), payable_until: formatDateTime(payableUntil) },
        );
      }
    }
    if (held) {
      throw new ApiError('OPEN_PAYMENT_LIMIT_REACHED', `A charge of invoice ${row.id} is already under way; try again when it has finished.`, {
        invoice_id: row.id,
      });
    }
    const key = newPayChargeKey(row.id, input.instrumentId, now, request);
    await holdChargeGuard(tx, row.id, key);
    const opened = await openPayment(
      deps,
      tx,
      { accountId: row.accountId, customerId: row.customerId, instrumentId: input.instrumentId, amount: row.amountDue, currency: row.currency, idempotencyKey: key, invoiceId: row.id, reference: row.id },
      verdict,
    );
    return { key, instrumentId: input.instrumentId, terms, opened };
  });
}

/**
 * invoices/pay (docs/invoice-payments.md): claims the invoice's charge guard, charges through the
 * charge path and settles, the settlement in `transaction` (the caller's, which also stores its
 * idempotency record). A claim abandoned past its lease is finished first. Refusals are
 * ApiErrors, the charge path's own too; a decline is a settlement with the payment's status.
 */
export async function payInvoice(deps: PayDependencies, scope: Scope, input: PayInput, transaction: TransactionRunner): Promise<Pick<Settlement, 'invoice' | 'payment'>> {
  const collect: CollectDependencies = { db: deps.db, charge: (charge) => chargePayment(deps, charge), now: deps.now };
  let claim = await claimCharge(deps, scope, input, true);
  if ('awaitingAction' in claim) {
    await withdrawWaitingPayments({ ...deps, announcePaid: (invoice) => signalInvoicePaid(deps.temporal, invoice) }, input.invoiceId);
    claim = await claimCharge(deps, scope, input, true);
    if ('awaitingAction' in claim) throw new Error(`A payment of invoice ${input.invoiceId} still waits for its customer after being withdrawn.`);
  }
  if ('abandoned' in claim) {
    const { key, instrumentId } = claim.abandoned;
    await finishClaimedCharge(collect, { invoiceId: input.invoiceId, key, instrumentId, origin: { kind: 'pay' } }, (work) => deps.db.$transaction(work));
    claim = await claimCharge(deps, scope, input, false);
    if (!('key' in claim)) throw new Error('A taken-over charge cannot be abandoned again.');
  }
  const { invoice, payment } = await finishClaimedCharge(
    collect,
    { invoiceId: input.invoiceId, key: claim.key, instrumentId: claim.instrumentId, origin: { kind: 'pay' }, terms: claim.terms, opened: claim.opened },
    transaction,
  );
  return { invoice, payment };
}

/** After the commit (a replayed answer too): a running dunning and the subscription hear the invoice was paid. */
export function announcePaid(deps: Pick<PayDependencies, 'temporal'>, result: Pick<Settlement, 'invoice'>): Promise<void> {
  return signalInvoicePaid(deps.temporal, result.invoice);
}
