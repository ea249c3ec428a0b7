import { z } from 'zod';
import { serializeSubscription } from '../../services/subscriptions/subscription-object';
import { channelIdField } from '../common/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { subscriptionId, subscriptionObject } from './schemas';
import { visibleSubscription } from './visible-subscription';

export const getSubscription = authorizedProcedure
  .meta(operation('subscriptions/get', { summary: 'Get a subscription', description: 'Subscriptions outside the key’s channels are 404.' }))
  .input(z.strictObject({ id: subscriptionId, channel_id: channelIdField }))
  .output(subscriptionObject)
  .query(async ({ ctx, input }) => serializeSubscription(await visibleSubscription(ctx.db, ctx, input.id, input.channel_id)));
