import type { ResourceErrorCodes } from '../openapi/operation-errors';

export const apiKeyErrorCodes = {
  create: {
    CHANNEL_NOT_FOUND: 'A `channel_ids` entry is not a channel of the caller’s account; `context.channel_ids` lists them.',
  },
} satisfies ResourceErrorCodes<'api-keys'>;
