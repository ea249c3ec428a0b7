import { z } from 'zod';
import { channelIdField } from '../common/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { visibleInstrument } from './repository';
import { serializePaymentInstrument } from '../../services/payment-instruments/records';
import { paymentInstrumentId, paymentInstrumentObject } from './schemas';

export const getPaymentInstrumentRequest = z.strictObject({ id: paymentInstrumentId, channel_id: channelIdField });

export const getPaymentInstrument = authorizedProcedure
  .meta(operation('payment-instruments/get', { summary: 'Get a payment instrument' }))
  .input(getPaymentInstrumentRequest)
  .output(paymentInstrumentObject)
  .query(async ({ ctx, input }) => serializePaymentInstrument(await visibleInstrument(ctx.db, ctx, input.id, input.channel_id)));
