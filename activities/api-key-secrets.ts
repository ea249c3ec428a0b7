import type { Database } from '../prisma/client';

export interface DeactivateSecretInput {
  secretRecordId: string;
  /** The expiry the rotation gave it; ISO 8601. */
  expiresAt: string;
}

export function createApiKeySecretActivities({ db }: { db: Database }) {
  return {
    /**
     * Deactivates the secret only while it still carries the expiry this rotation gave it. So a
     * retry, a secret already revoked by a later rotation, and a rotation whose transaction
     * rolled back after starting the workflow (the secret kept no expiry, or got another one
     * from a later rotation) all leave nothing to do.
     */
    async deactivateApiKeySecret({ secretRecordId, expiresAt }: DeactivateSecretInput): Promise<{ deactivated: boolean }> {
      const { count } = await db.apiKeySecret.updateMany({
        where: { id: secretRecordId, revokedAt: null, expiresAt: new Date(expiresAt) },
        data: { revokedAt: new Date() },
      });
      return { deactivated: count > 0 };
    },
  };
}
