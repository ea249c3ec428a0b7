import type { ResourceErrorCodes } from '../openapi/operation-types';

export const meterErrorCodes = {
  update: {
    METER_CHANGE_TOO_EARLY:
      '`effective_from` is earlier than now plus 5 minutes (events up to then may be accepted already) or than the newest version’s; `context.field`, `context.earliest`.',
    INCOMPATIBLE_STATUS: 'A change of `property`, `filters` or `group_by` of an ARCHIVED meter; `context.status`, `context.allowed_statuses`.',
  },
  archive: {
    METER_IN_USE:
      'A subscription that is not CANCELLED or EXPIRED has a line with a USAGE price of the meter; `context.subscription_ids`, `context.product_price_ids` (up to 10 lines).',
  },
} satisfies ResourceErrorCodes<'meters'>;
