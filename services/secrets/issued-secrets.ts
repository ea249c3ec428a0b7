import { issueSecret } from '../../domain/api-key-secret';
import { newId } from '../../domain/ids';
import { sealSecret } from '../../domain/secret-box';
import { newWebhookSecret, webhookSecretPurpose } from '../../domain/webhook-signature';
import type { Prisma } from '../../prisma/client';
import { secretsKey } from './secrets-key';

type Db = Prisma.TransactionClient;

/** A new `asec_…` secret, stored as its lookup and hash only. */
export async function insertApiKeySecret(tx: Db, apiKeyId: string, now: Date): Promise<{ recordId: string; secret: string }> {
  const issued = issueSecret();
  const recordId = newId('apiKeySecretRecord');
  await tx.apiKeySecret.create({ data: { id: recordId, apiKeyId, lookup: issued.lookup, hash: issued.hash, createdAt: now } });
  return { recordId, secret: issued.secret };
}

/** A new `wsec_…` secret, sealed under SECRETS_KEY: deliveries must sign with it, so it cannot be hashed. */
export async function insertWebhookSecret(tx: Db, endpointId: string, now: Date): Promise<{ recordId: string; secret: string }> {
  const secret = newWebhookSecret();
  const recordId = newId('webhookSecretRecord', now.getTime());
  await tx.webhookEndpointSecret.create({
    data: { id: recordId, endpointId, sealed: new Uint8Array(sealSecret(secretsKey(), webhookSecretPurpose(recordId), secret)), createdAt: now },
  });
  return { recordId, secret };
}
