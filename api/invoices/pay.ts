import { z } from 'zod';
import { createChargeActivities } from '../../activities/charge';
import { ApiError } from '../../domain/errors';
import { formatDateTime } from '../../domain/datetime';
import { nextStatus } from '../../domain/invoice-status';
import { channelVisible } from '../auth/channel-scope';
import { channelIdField, prefixedId } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation, type AuthorizedContext } from '../trpc';
import { newPayChargeKey, parsePayChargeKey, payClaimAbandoned, requestTag, type PayChargeKey } from './payments/charge-keys';
import { finishClaimedCharge, type CollectDependencies } from './payments/collect';
import { signalInvoicePaid } from './payments/paid-signals';
import { paymentObject } from './payments/schemas';
import { lockVisibleInvoice } from './repository';
import { invoiceId, invoiceObject } from './schemas';

/**
 * A SEND_INVOICE invoice more than this long past its `due_at` can no longer be paid with an
 * instrument (INVOICE_OVERDUE): the terms it was issued on have lapsed, so the merchant voids it
 * and issues a new one. docs/invoice-payments.md.
 */
export const PAY_AFTER_DUE_DAYS = 30;
const DAY_MS = 24 * 60 * 60 * 1000;

export const payInvoiceRequest = z.strictObject({
  id: invoiceId,
  payment_instrument_id: prefixedId('paymentInstrument'),
  channel_id: channelIdField,
});

export const payInvoiceResponse = z
  .object({
    invoice: invoiceObject,
    payment: paymentObject.meta({ description: 'The charge this request made: a decline is a 200 too, with the payment’s status.' }),
  })
  .meta({ id: 'InvoicePayResult' });

type Claim = { key: string; instrumentId: string } | { abandoned: PayChargeKey };

/**
 * Locks the invoice and decides (docs/invoice-payments.md, checks in this order): INCOMPATIBLE_STATUS,
 * PAYMENT_INSTRUMENT_NOT_FOUND, PAYMENT_INSTRUMENT_NOT_ACTIVE, INVOICE_OVERDUE,
 * OPEN_PAYMENT_LIMIT_REACHED; then claims the invoice's charge guard under a new key. A claim
 * held by this very request (a retry under its Idempotency-Key) is returned to be resumed, and
 * one abandoned past its lease is handed back to be finished before this request is decided.
 */
async function claimCharge(ctx: AuthorizedContext, input: z.output<typeof payInvoiceRequest>, request: string | undefined, takeOver: boolean): Promise<Claim> {
  return ctx.db.$transaction(async (tx) => {
    const now = ctx.now();
    const row = await lockVisibleInvoice(tx, ctx, input.id, input.channel_id);
    const { paymentInProgressId: held } = await tx.invoice.findUniqueOrThrow({ where: { id: row.id }, select: { paymentInProgressId: true } });
    const heldPay = held ? parsePayChargeKey(held) : undefined;
    if (heldPay && request && heldPay.request === request && heldPay.instrumentId === input.payment_instrument_id) {
      return { key: heldPay.key, instrumentId: heldPay.instrumentId };
    }
    if (heldPay && takeOver && payClaimAbandoned(heldPay, now)) return { abandoned: heldPay };

    nextStatus('pay', row.status);
    const instrument = await tx.paymentInstrument.findFirst({
      where: { id: input.payment_instrument_id, accountId: ctx.principal.accountId },
      select: { customerId: true, channelId: true, status: true },
    });
    if (!instrument || instrument.customerId !== row.customerId || !channelVisible(ctx.principal, instrument.channelId)) {
      throw new ApiError(
        'PAYMENT_INSTRUMENT_NOT_FOUND',
        `Payment instrument ${input.payment_instrument_id} is not an instrument of the invoice's customer ${row.customerId}.`,
        { payment_instrument_id: input.payment_instrument_id },
      );
    }
    if (instrument.status !== 'ACTIVE') {
      throw new ApiError('PAYMENT_INSTRUMENT_NOT_ACTIVE', `Payment instrument ${input.payment_instrument_id} is ${instrument.status}, not ACTIVE.`, {
        payment_instrument_id: input.payment_instrument_id,
        status: instrument.status,
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
    const key = newPayChargeKey(row.id, input.payment_instrument_id, now, request);
    await tx.invoice.update({ where: { id: row.id }, data: { paymentInProgressId: key } });
    return { key, instrumentId: input.payment_instrument_id };
  });
}

export const payInvoice = authorizedProcedure
  .meta(
    operation('invoices/pay', {
      summary: 'Pay an invoice with a saved payment instrument',
      description:
        'Charges the amount due of an OPEN, DUNNING or UNPAID invoice through the charge path (antifraud, routing, cascade). Success: PAID, InvoicePaid, and a running dunning ends. A decline is a 200 with `payment.status` DECLINED or FAILED and InvoicePaymentFailed; the invoice keeps its status. 422: INCOMPATIBLE_STATUS, PAYMENT_INSTRUMENT_NOT_FOUND, PAYMENT_INSTRUMENT_NOT_ACTIVE, INVOICE_OVERDUE, OPEN_PAYMENT_LIMIT_REACHED (docs/invoice-payments.md).',
    }),
  )
  .input(payInvoiceRequest)
  .output(payInvoiceResponse)
  .mutation(async ({ ctx, input }) => {
    const collect: CollectDependencies = { db: ctx.db, charge: createChargeActivities({ db: ctx.db }).chargePayment, now: ctx.now };
    const request = ctx.idempotencyKey ? requestTag(ctx.principal.apiKeyId, ctx.idempotencyKey) : undefined;
    const result = await withIdempotency(ctx, 'invoices/pay', input, async (ctx) => {
      let claim = await claimCharge(ctx, input, request, true);
      if ('abandoned' in claim) {
        const { key, instrumentId } = claim.abandoned;
        await finishClaimedCharge(collect, { invoiceId: input.id, key, instrumentId, origin: { kind: 'pay' } }, (work) => ctx.db.$transaction(work));
        claim = await claimCharge(ctx, input, request, false);
        if ('abandoned' in claim) throw new Error('A taken-over charge cannot be abandoned again.');
      }
      const { invoice, payment } = await finishClaimedCharge(
        collect,
        { invoiceId: input.id, key: claim.key, instrumentId: claim.instrumentId, origin: { kind: 'pay' } },
        ctx.transaction,
      );
      return { invoice, payment };
    });
    await signalInvoicePaid(ctx.temporal, result.invoice);
    return result;
  });
