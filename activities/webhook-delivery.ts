import type { ActivityDependencies } from '.';
import { attemptDelivery, type AttemptDeliveryInput, type AttemptDeliveryResult } from '../services/webhooks/delivery-attempt';

export function createWebhookDeliveryActivities({ db }: ActivityDependencies) {
  return {
    /** One attempt of a delivery workflow (services/webhooks/delivery-attempt.ts). */
    attemptWebhookDelivery(input: AttemptDeliveryInput): Promise<AttemptDeliveryResult> {
      return attemptDelivery(db, input);
    },
  };
}
