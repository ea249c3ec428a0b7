import { z } from 'zod';
import { revokePaymentInstrument as revokeInstrumentService } from '../../services/payment-instruments/revoke';
import { operationScope } from '../auth/channel-scope';
import { channelIdField } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { paymentInstrumentId, paymentInstrumentObject } from './schemas';

export const revokePaymentInstrumentRequest = z.strictObject({ id: paymentInstrumentId, channel_id: channelIdField });

export const revokePaymentInstrument = authorizedProcedure
  .meta(
    operation('payment-instruments/revoke', {
      summary: 'Revoke a payment instrument',
      description: 'ACTIVE → REVOKED, for good: it can never be charged again. Emits PaymentInstrumentRevoked.',
    }),
  )
  .input(revokePaymentInstrumentRequest)
  .output(paymentInstrumentObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'payment-instruments/revoke', input, (ctx) =>
      ctx.transaction((tx) => revokeInstrumentService(ctx, tx, operationScope(ctx.principal, input.channel_id), input.id)),
    ),
  );
