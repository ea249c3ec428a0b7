import type { ActivityDependencies } from '.';

export interface RetireWebhookSecretInput {
  secretRecordId: string;
  /** The expiry the rotation gave it; ISO 8601. */
  expiresAt: string;
}

export function createWebhookKeyRotationActivities({ db }: ActivityDependencies) {
  return {
    /**
     * Retires the secret only while it still carries the expiry this rotation gave it: a retry,
     * a secret already revoked by a later rotation or a delete, and a rotation whose transaction
     * rolled back after starting the workflow all leave nothing to do.
     */
    async retireWebhookSecret({ secretRecordId, expiresAt }: RetireWebhookSecretInput): Promise<{ retired: boolean }> {
      const { count } = await db.webhookEndpointSecret.updateMany({
        where: { id: secretRecordId, revokedAt: null, expiresAt: new Date(expiresAt) },
        data: { revokedAt: new Date() },
      });
      return { retired: count > 0 };
    },
  };
}
