import { proxyActivities, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';

const { deactivateApiKeySecret } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

export interface ApiKeyRotationInput {
  apiKeyId: string;
  /** The secret that was current when the rotation ran. */
  demotedSecretRecordId: string;
  /** Its expiry as the rotation set it (ISO 8601). */
  expiresAt: string;
  rotationPeriodSeconds: number;
}

/**
 * Ends the overlap of a key rotation: the secret that was current when `api-keys/rotate` ran
 * stays valid for the rotation period, then this deactivates it. The timer lives in Temporal,
 * so restarting every process in between changes nothing; the activity retries until the
 * database answers.
 */
export async function apiKeyRotationWorkflow(input: ApiKeyRotationInput): Promise<{ deactivated: boolean }> {
  await sleep(input.rotationPeriodSeconds * 1000);
  return deactivateApiKeySecret({ secretRecordId: input.demotedSecretRecordId, expiresAt: input.expiresAt });
}
