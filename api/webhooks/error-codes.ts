import type { ResourceErrorCodes } from '../openapi/operation-types';

const ENDPOINT_ALREADY_EXISTS = 'A live endpoint of the account already has this `url`.';

export const webhookErrorCodes = {
  create: {
    ENDPOINT_ALREADY_EXISTS,
    CHANNEL_NOT_FOUND: '`channel_id` is not a channel of the caller’s account; `context.channel_id`.',
  },
  patch: { ENDPOINT_ALREADY_EXISTS },
  redeliver: {
    ENDPOINT_NOT_ACTIVE: 'The `endpoint_id` named is not ACTIVE; patch it to ACTIVE first. `context.status`.',
    EVENT_OUTSIDE_ENDPOINT_CHANNEL: 'The `endpoint_id` named receives events of another channel only.',
    DELIVERY_IN_PROGRESS: 'Every delivery of the event to the endpoints asked is still PENDING; its attempts continue on their schedule.',
    NOTHING_TO_REDELIVER: 'Without `endpoint_id`: no ACTIVE endpoint has a delivery of the event; name one.',
    REDELIVERY_NOT_STARTED: 'Another redelivery claimed the same instant and this round could not start; retry (docs/webhooks.md).',
  },
  'send-test-event': {
    ENDPOINT_NOT_ACTIVE: 'The endpoint is INACTIVE or DISABLED, and nothing is sent to such an endpoint; `context.status`.',
  },
} satisfies ResourceErrorCodes<'webhooks'>;
