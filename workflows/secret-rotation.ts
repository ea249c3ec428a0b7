import { patched, proxyActivities, setCurrentDetails, sleep } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { waitingUntil } from '../domain/workflow-details';

const { endSecretOverlap, deactivateApiKeySecret, retireWebhookSecret } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

export type RotatedSecretKind = 'apiKey' | 'webhookEndpoint';

interface SecretOverlap {
  /** The secret that was current when the rotation ran. */
  demotedSecretRecordId: string;
  /** Its expiry as the rotation set it (ISO 8601). */
  expiresAt: string;
  rotationPeriodSeconds: number;
}

export interface ApiKeyRotationInput extends SecretOverlap {
  apiKeyId: string;
}

export interface WebhookKeyRotationInput extends SecretOverlap {
  endpointId: string;
}

/**
 * Runs started before one activity ended every overlap schedule the activity of their kind:
 * replaying them must schedule it again, new runs take endSecretOverlap.
 */
const ONE_OVERLAP_ACTIVITY = 'secret-rotation-one-overlap-activity';

/**
 * The demoted secret stays valid for the rotation period, then is revoked. The timer lives in
 * Temporal, so restarting every process in between changes nothing; the activity retries until
 * the database answers.
 */
async function endOverlap(kind: RotatedSecretKind, ownerId: string, overlap: SecretOverlap): Promise<boolean> {
  const period = overlap.rotationPeriodSeconds * 1000;
  const revocation = `the previous secret ${overlap.demotedSecretRecordId} of ${ownerId}`;
  setCurrentDetails(waitingUntil(Date.now() + period, `to revoke ${revocation}`));
  await sleep(period);
  setCurrentDetails(`Revoking ${revocation}`);
  const secret = { secretRecordId: overlap.demotedSecretRecordId, expiresAt: overlap.expiresAt };
  const options = { summary: `Revoke ${revocation}: the rotation period of ${overlap.rotationPeriodSeconds} s is over` };
  if (patched(ONE_OVERLAP_ACTIVITY)) return endSecretOverlap.executeWithOptions(options, [{ kind, ...secret }]);
  return kind === 'apiKey'
    ? (await deactivateApiKeySecret.executeWithOptions(options, [secret])).deactivated
    : (await retireWebhookSecret.executeWithOptions(options, [secret])).retired;
}

/** Ends the overlap of `api-keys/rotate`: the previous secret stops authenticating. */
export async function apiKeyRotationWorkflow(input: ApiKeyRotationInput): Promise<{ deactivated: boolean }> {
  return { deactivated: await endOverlap('apiKey', input.apiKeyId, input) };
}

/** Ends the overlap of `webhooks/rotate-key`: deliveries are signed with the new secret only. */
export async function webhookKeyRotationWorkflow(input: WebhookKeyRotationInput): Promise<{ retired: boolean }> {
  return { retired: await endOverlap('webhookEndpoint', input.endpointId, input) };
}
