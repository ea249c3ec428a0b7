import { endSecretOverlap, type RotatedSecretKind } from '../services/secrets/rotation';
import type { ActivityDependencies } from '.';

export interface RotatedSecretInput {
  secretRecordId: string;
  /** The expiry the rotation gave it; ISO 8601. */
  expiresAt: string;
}

export function createSecretRotationActivities({ db }: ActivityDependencies) {
  return {
    endSecretOverlap: (input: RotatedSecretInput & { kind: RotatedSecretKind }): Promise<boolean> => endSecretOverlap({ db }, input),
    // Scheduled by rotation runs started before endSecretOverlap existed (workflows/secret-rotation.ts);
    // needed until the last of them has ended, at most MAX_ROTATION_PERIOD_SECONDS after the deploy.
    deactivateApiKeySecret: async (input: RotatedSecretInput) => ({ deactivated: await endSecretOverlap({ db }, { kind: 'apiKey', ...input }) }),
    retireWebhookSecret: async (input: RotatedSecretInput) => ({ retired: await endSecretOverlap({ db }, { kind: 'webhookEndpoint', ...input }) }),
  };
}
