import type { ActivityDependencies } from '.';
import { attemptDelivery, type AttemptDeliveryInput, type AttemptDeliveryResult } from '../services/webhooks/workflow-attempt';

export function createWebhookDeliveryActivities({ db }: ActivityDependencies) {
  return {
    /** One attempt of a delivery workflow (services/webhooks/workflow-attempt.ts). */
    attemptWebhookDelivery(input: AttemptDeliveryInput): Promise<AttemptDeliveryResult> {
      return attemptDelivery(db, input);
    },
  };
}
