import { z } from 'zod';
import { INVOICE_STATUSES } from '../../../domain/invoice-status';
import { ownedInstrument, ownedInvoice } from '../../../services/portal/ownership';
import { invoiceId } from '../../invoices/schemas';
import { paymentInstrumentId } from '../../payment-instruments/schemas';
import { listed, pagination, portalOperation } from '../operation';
import { callV2 } from '../v2-call';
import { portalListRequest } from './list-request';

/** A DRAFT is the merchant's work in progress: the customer sees an invoice once it is issued. */
const ISSUED_STATUSES = INVOICE_STATUSES.filter((status) => status !== 'DRAFT');

export const invoiceOperations = {
  'invoices/list': portalOperation(portalListRequest, async (ctx, input) => ({
    body: listed(
      await callV2<{ items: unknown[]; pagination: { next_page_token: string } }>(ctx.v2, 'invoices.list', {
        filters: { customer_id: { operator: 'EQ', value: ctx.session.actor.customerId }, status: { operator: 'IN', value: ISSUED_STATUSES } },
        pagination: pagination(input),
      }),
    ),
  })),
  'invoices/pay': portalOperation(z.strictObject({ id: invoiceId, payment_instrument_id: paymentInstrumentId }), async (ctx, input) => {
    await ownedInvoice(ctx.db, ctx.session.actor, input.id);
    await ownedInstrument(ctx.db, ctx.session.actor, input.payment_instrument_id);
    return { body: await callV2(ctx.v2, 'invoices.pay', { id: input.id, payment_instrument_id: input.payment_instrument_id }, ctx.v2.idempotencyKey) };
  }),
  'credit-notes/list': portalOperation(portalListRequest, async (ctx, input) => ({
    body: listed(
      await callV2<{ items: unknown[]; pagination: { next_page_token: string } }>(ctx.v2, 'credit-notes.list', {
        filters: { customer_id: { operator: 'EQ', value: ctx.session.actor.customerId } },
        pagination: pagination(input),
      }),
    ),
  })),
};
