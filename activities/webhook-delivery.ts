import type { ActivityDependencies } from '.';
import { DEFAULT_DELIVERY_TIMEOUT_MS } from '../domain/webhook-retry-schedule';
import { attemptDelivery, type AttemptDeliveryInput } from '../services/webhooks/delivery-attempt';
import { loopbackAllowed } from '../services/webhooks/loopback-opt-in';
import { post } from './webhook-post';

/** WEBHOOK_DELIVERY_TIMEOUT_MS of the worker, read at each attempt. */
export function deliveryTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  const configured = Number(env.WEBHOOK_DELIVERY_TIMEOUT_MS);
  return Number.isInteger(configured) && configured > 0 ? configured : DEFAULT_DELIVERY_TIMEOUT_MS;
}

export function createWebhookDeliveryActivities({ db }: ActivityDependencies) {
  return {
    attemptWebhookDelivery: (input: AttemptDeliveryInput) =>
      attemptDelivery(
        { db, send: (url, body, signature) => post(url, body, signature, { timeoutMs: deliveryTimeoutMs(), allowLoopback: loopbackAllowed() }) },
        input,
      ),
  };
}
