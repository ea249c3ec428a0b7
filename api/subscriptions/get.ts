import { z } from 'zod';
import { serializeSubscription } from '../../services/subscriptions/subscription-object';
import { visibleSubscription } from '../../services/subscriptions/visible';
import { operationScope } from '../auth/channel-scope';
import { channelIdField } from '../common/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { subscriptionId, subscriptionObject } from './schemas';

export const getSubscription = authorizedProcedure
  .meta(operation('subscriptions/get', { summary: 'Get a subscription', description: 'Subscriptions outside the key’s channels are 404.' }))
  .input(z.strictObject({ id: subscriptionId, channel_id: channelIdField }))
  .output(subscriptionObject)
  .query(async ({ ctx, input }) => serializeSubscription(await visibleSubscription(ctx.db, operationScope(ctx.principal, input.channel_id), input.id)));
