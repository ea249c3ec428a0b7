import { z } from 'zod';
import { channelIdField } from '../common/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { serializePaymentInstrument, visibleInstrument } from '../../services/payment-instruments/records';
import { operationScope } from '../auth/channel-scope';
import { paymentInstrumentId, paymentInstrumentObject } from './schemas';

export const getPaymentInstrumentRequest = z.strictObject({ id: paymentInstrumentId, channel_id: channelIdField });

export const getPaymentInstrument = authorizedProcedure
  .meta(operation('payment-instruments/get', { summary: 'Get a payment instrument' }))
  .input(getPaymentInstrumentRequest)
  .output(paymentInstrumentObject)
  .query(async ({ ctx, input }) => serializePaymentInstrument(await visibleInstrument(ctx.db, operationScope(ctx.principal, input.channel_id), input.id)));
