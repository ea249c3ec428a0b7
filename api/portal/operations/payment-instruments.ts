import { z } from 'zod';
import { customerInstrumentsInUse, refuseInstrumentInUse } from '../../../services/portal/instruments-in-use';
import { ownedInstrument } from '../../../services/portal/ownership';
import { MAX_PAGE_SIZE } from '../../common/pagination';
import { tokenizePaymentInstrumentRequest } from '../../payment-instruments/tokenize';
import { paymentInstrumentId } from '../../payment-instruments/schemas';
import { portalOperation } from '../operation';
import { callV2 } from '../v2-call';

const byId = z.strictObject({ id: paymentInstrumentId });

export const paymentInstrumentOperations = {
  /** The ACTIVE cards (a customer holds far fewer than a page), the default, and what each one pays. */
  'payment-instruments/list': portalOperation(z.strictObject({}), async (ctx) => {
    const { actor } = ctx.session;
    const [page, customer, inUse] = await Promise.all([
      callV2<{ items: unknown[] }>(ctx.v2, 'payment-instruments.list', {
        customer_id: actor.customerId,
        filters: { status: { operator: 'EQ', value: 'ACTIVE' } },
        pagination: { page_size: MAX_PAGE_SIZE },
      }),
      callV2<{ configuration?: { default_payment_instrument_id?: string } }>(ctx.v2, 'customers.get', { id: actor.customerId }),
      customerInstrumentsInUse(ctx.db, actor),
    ]);
    return {
      body: {
        data: page.items,
        default_payment_instrument_id: customer.configuration?.default_payment_instrument_id ?? null,
        in_use: Object.fromEntries(inUse),
      },
    };
  }),
  'payment-instruments/add-card': portalOperation(z.strictObject({ card: tokenizePaymentInstrumentRequest.shape.card }), async (ctx, input) => ({
    body: await callV2(ctx.v2, 'payment-instruments.tokenize', { customer_id: ctx.session.actor.customerId, card: input.card }, ctx.v2.idempotencyKey),
  })),
  'payment-instruments/set-default': portalOperation(byId, async (ctx, input) => {
    await ownedInstrument(ctx.db, ctx.session.actor, input.id);
    return {
      body: await callV2(ctx.v2, 'customers.update', { id: ctx.session.actor.customerId, configuration: { default_payment_instrument_id: input.id } }, ctx.v2.idempotencyKey),
    };
  }),
  'payment-instruments/remove': portalOperation(byId, async (ctx, input) => {
    await ownedInstrument(ctx.db, ctx.session.actor, input.id);
    await refuseInstrumentInUse(ctx.db, ctx.session.actor, input.id);
    return { body: await callV2(ctx.v2, 'payment-instruments.revoke', { id: input.id }, ctx.v2.idempotencyKey) };
  }),
};
