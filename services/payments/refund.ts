import { ApiError } from '../../domain/errors';
import { newUlid } from '../../domain/ids';
import type { Database } from '../../prisma/client';
import type { RefundRegistry } from './providers/registry';
import { lockVisibleInvoice, visibleInvoice } from '../invoices/repository';
import type { Scope } from '../scope';
import type { TransactionRunner } from './collect';
import { readMoneyGivenBack } from './left-to-give-back';
import { abandonedRefunds, finishRefund, refundablePayment, reserveRefund, type RefundOutcome } from './refunds';

export interface RefundDependencies {
  db: Database;
  now: () => Date;
  /** The sandbox registry unless given. */
  providers?: RefundRegistry;
}

export interface RefundInput {
  invoiceId: string;
  /** Minor units; everything not yet refunded when absent. */
  amount?: number;
  reason?: string;
  /** Identifies the request's (API key, Idempotency-Key) pair (requestTag): its retry resumes its own refund. */
  request?: string;
}

/**
 * invoices/refund (docs/invoice-payments.md, "Refunds"): records the refund PENDING with its
 * reservation, then asks the provider and records the answer in `transaction` (the caller's,
 * which also stores its idempotency record). It refunds at most what the invoice has left to give
 * back (services/payments/left-to-give-back.ts), decided under the invoice's lock. Refusals:
 * INCOMPATIBLE_STATUS, REFUND_EXCEEDS_PAYMENT.
 */
export async function refundInvoice(deps: RefundDependencies, scope: Scope, input: RefundInput, transaction: TransactionRunner): Promise<RefundOutcome> {
  // Abandoned refunds of the invoice are finished first, so this one is decided on what is
  // really left to refund; only once the caller may see the invoice: the provider calls are
  // made on its behalf.
  const visible = await visibleInvoice(deps.db, scope, input.invoiceId);
  for (const id of await abandonedRefunds(deps.db, deps.now(), { invoice: { accountId: visible.accountId, id: visible.id } })) {
    await finishRefund(deps.db, id, (work) => deps.db.$transaction(work), deps.now, deps.providers);
  }
  const refundId = await deps.db.$transaction(async (tx) => {
    const row = await lockVisibleInvoice(tx, scope, input.invoiceId);
    const key = `${row.id}/refund/${input.request ?? newUlid(deps.now().getTime())}`;
    // This request's retry: the refund it recorded before it was cut off is resumed.
    const own = await tx.refund.findUnique({ where: { accountId_idempotencyKey: { accountId: row.accountId, idempotencyKey: key } } });
    if (own) return own.id;
    if (row.status !== 'PAID') {
      throw new ApiError('INCOMPATIBLE_STATUS', `The invoice is ${row.status}; only a PAID invoice can be refunded.`, {
        status: row.status,
        allowed_statuses: ['PAID'],
      });
    }
    const found = await refundablePayment(tx, row.id);
    if (!found) {
      throw new ApiError('INCOMPATIBLE_STATUS', `Invoice ${row.id} was not paid through a provider: there is no payment to refund.`, {
        status: row.status,
      });
    }
    const { payment } = found;
    // Credit notes gave back part of the invoice too (to the balance, out of band): only the rest may be refunded, and never more than the card paid.
    const given = await readMoneyGivenBack(tx, row.id);
    const { givenBack } = given;
    const refundable = Math.min(found.refundable, given.refundable);
    const amount = input.amount ?? refundable;
    if (amount > refundable || amount === 0) {
      throw new ApiError(
        'REFUND_EXCEEDS_PAYMENT',
        `Invoice ${row.id} has ${refundable} left to refund (${row.amountPaid} paid through payment ${payment.id}, ${givenBack} already given back by refunds and credit notes); ${amount} asked.`,
        { amount, refundable, payment_id: payment.id, amount_paid: row.amountPaid, given_back: givenBack },
      );
    }
    return reserveRefund(tx, { invoice: row, payment, amount, reason: input.reason ?? null, key, now: deps.now() });
  });
  return finishRefund(deps.db, refundId, transaction, deps.now, deps.providers);
}
