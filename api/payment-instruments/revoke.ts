import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { recordEvent } from '../../prisma/outbox';
import { channelIdField } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { revokeInstrument, visibleInstrument } from './repository';
import { serializePaymentInstrument } from '../../services/payment-instruments/records';
import { paymentInstrumentId, paymentInstrumentObject } from './schemas';

export const revokePaymentInstrumentRequest = z.strictObject({ id: paymentInstrumentId, channel_id: channelIdField });

export const revokePaymentInstrument = authorizedProcedure
  .meta(
    operation('payment-instruments/revoke', {
      summary: 'Revoke a payment instrument',
      description: 'ACTIVE → REVOKED, for good: it can never be charged again. Other statuses: 422 INCOMPATIBLE_STATUS. Emits PaymentInstrumentRevoked.',
    }),
  )
  .input(revokePaymentInstrumentRequest)
  .output(paymentInstrumentObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'payment-instruments/revoke', input, (ctx) =>
      ctx.transaction(async (tx) => {
        await visibleInstrument(tx, ctx, input.id, input.channel_id);
        const now = ctx.now();
        const { revoked, row } = await revokeInstrument(tx, input.id, now);
        if (!revoked) {
          throw new ApiError('INCOMPATIBLE_STATUS', `Payment instrument ${input.id} is ${row.status}; only an ACTIVE one can be revoked.`, {
            status: row.status,
          });
        }
        const instrument = serializePaymentInstrument(row);
        await recordEvent(tx, {
          accountId: ctx.principal.accountId,
          channelId: row.channelId,
          name: 'PaymentInstrumentRevoked',
          data: { payment_instrument: instrument },
          occurredAt: now,
        });
        return instrument;
      }),
    ),
  );
