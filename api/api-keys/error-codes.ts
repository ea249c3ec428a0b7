import type { ResourceErrorCodes } from '../openapi/operation-types';

export const apiKeyErrorCodes = {
  create: {
    CHANNEL_NOT_FOUND: 'A `channel_ids` entry is not a channel of the caller’s account; `context.channel_ids` lists them.',
  },
  rotate: { INCOMPATIBLE_STATUS: 'The key is REVOKED: rotating would give it a working secret again; `context.status`.' },
  revoke: { INCOMPATIBLE_STATUS: 'The key is REVOKED already (revoking is final); `context.status`.' },
} satisfies ResourceErrorCodes<'api-keys'>;
