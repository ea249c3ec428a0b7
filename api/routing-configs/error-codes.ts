import type { ResourceErrorCodes } from '../openapi/operation-types';

export const routingConfigErrorCodes = {
  create: {
    ROUTING_CONFIG_ALREADY_EXISTS:
      'The channel (or, without `channel_id`, the account) already has a routing configuration; `context.routing_config_id` names it.',
    CHANNEL_NOT_FOUND: '`channel_id` is not a channel of the caller’s account; `context.channel_id`.',
  },
  'publish-version': {
    INCOMPATIBLE_STATUS: 'Only a `DRAFT` version can be published; `context.status` is its current status.',
  },
} satisfies ResourceErrorCodes<'routing-configs'>;
