import { router } from '../trpc';
import { createWebhook } from './create';
import { deleteWebhook } from './delete';
import { getWebhook } from './get';
import { listWebhookDeliveries } from './list-deliveries';
import { listWebhooks } from './list';
import { patchWebhook } from './patch';
import { redeliverWebhook } from './redeliver';
import { rotateWebhookKey } from './rotate-key';
import { sendTestWebhookEvent } from './send-test-event';

export const webhooksRouter = router({
  create: createWebhook,
  list: listWebhooks,
  get: getWebhook,
  patch: patchWebhook,
  delete: deleteWebhook,
  'rotate-key': rotateWebhookKey,
  'list-deliveries': listWebhookDeliveries,
  redeliver: redeliverWebhook,
  'send-test-event': sendTestWebhookEvent,
});
