import type { ResourceErrorCodes } from '../openapi/operation-types';

export const usageErrorCodes = {
  summary: {
    METER_NOT_FOUND: '`meter_id` is not a meter of the account; `context.meter_id`.',
    SUBSCRIPTION_NOT_FOUND: '`subscription_id` is not a subscription of the customer the key can see; `context.subscription_id`.',
    USAGE_WINDOW_TOO_LARGE: 'The window holds more than 744 buckets per meter (hours, days or billing periods); narrow `from` and `to`. `context.window`, `context.buckets`, `context.max_buckets`.',
  },
} satisfies ResourceErrorCodes<'usage'>;
