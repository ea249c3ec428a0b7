import { randomBytes } from 'node:crypto';
import { ID_PREFIXES } from './ids';

export { computeSignature, verifySignature } from './webhook-receiver/signature';

/** A new endpoint secret: `wsec_` and 32 random bytes, base64url. */
export function newWebhookSecret(): string {
  return `${ID_PREFIXES.webhookSecret}${randomBytes(32).toString('base64url')}`;
}

/**
 * The associated data a secret is sealed under (domain/secret-box.ts): bound to its own record,
 * so a sealed value copied onto another record or endpoint does not open.
 */
export function webhookSecretPurpose(secretRecordId: string): string {
  return `webhook-endpoint-secret:${secretRecordId}`;
}
