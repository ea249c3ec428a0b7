import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { retireWebhookSecret } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

export interface WebhookKeyRotationInput {
  endpointId: string;
  /** The secret that was current when webhooks/rotate-key ran. */
  demotedSecretRecordId: string;
  /** Its expiry as the rotation set it (ISO 8601). */
  expiresAt: string;
  rotationPeriodSeconds: number;
}

/**
 * Ends the overlap of a webhook secret rotation: the previous secret keeps signing for the
 * rotation period, then this retires it and deliveries are signed with the new one. The timer
 * lives in Temporal, so restarts in between change nothing.
 */
export async function webhookKeyRotationWorkflow(input: WebhookKeyRotationInput): Promise<{ retired: boolean }> {
  await sleep(input.rotationPeriodSeconds * 1000);
  return retireWebhookSecret({ secretRecordId: input.demotedSecretRecordId, expiresAt: input.expiresAt });
}
