import { z } from 'zod';
import { channelIdField } from '../common/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { serializeCustomer } from './repository';
import { visibleCustomer } from './rules';
import { customerId, customerObject } from './schemas';

export const getCustomerRequest = z.strictObject({ id: customerId, channel_id: channelIdField });

export const getCustomer = authorizedProcedure
  .meta(operation('customers/get', { summary: 'Get a customer', description: 'A customer outside the key’s channels is 404.' }))
  .input(getCustomerRequest)
  .output(customerObject)
  .query(async ({ ctx, input }) => serializeCustomer(await visibleCustomer(ctx.db, ctx, input.id, input.channel_id)));
