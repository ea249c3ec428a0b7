import { z } from 'zod';
import { channelIdField } from '../common/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { serializeCustomer } from '../../services/customers/repository';
import { visibleCustomer } from '../../services/customers/rules';
import { operationScope } from '../auth/channel-scope';
import { customerId, customerObject } from './schemas';

export const getCustomerRequest = z.strictObject({ id: customerId, channel_id: channelIdField });

export const getCustomer = authorizedProcedure
  .meta(operation('customers/get', { summary: 'Get a customer', description: 'A customer outside the key’s channels is 404.' }))
  .input(getCustomerRequest)
  .output(customerObject)
  .query(async ({ ctx, input }) => serializeCustomer(await visibleCustomer(ctx.db, operationScope(ctx.principal, input.channel_id), input.id)));
