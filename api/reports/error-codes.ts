import type { ResourceErrorCodes } from '../openapi/operation-types';

export const reportErrorCodes = {
  create: {
    CHANNEL_NOT_FOUND: '`channel_id` is not a channel of the caller’s account; `context.channel_id`.',
  },
  download: {
    INCOMPATIBLE_STATUS: 'The report is still PROCESSING, or FAILED or EXPIRED; `context.status`. docs/reports.md.',
  },
} satisfies ResourceErrorCodes<'reports'>;
