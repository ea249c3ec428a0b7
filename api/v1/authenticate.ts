import { ApiError } from '../../domain/errors';
import { openSecret } from '../../domain/secret-box';
import { newV1Secret, V1_SECRET_PURPOSE, verifyV1Signature } from '../../domain/v1-signature';
import type { Database } from '../../prisma/client';
import { secretsKey } from '../../services/secrets/secrets-key';

/** One message for every way of failing, so an answer never tells which merchant ids exist. */
const AUTHORIZATION_FAILED = 'Authorization failed: the merchant and signature headers do not match a v1 secret.';

const NOT_ENABLED =
  'The v1 service is not enabled for this merchant: no v1 secret has been issued. Ask the platform operator to issue one.';

/** Longer than any account id: such a header is refused without a query. */
const MAX_MERCHANT_LENGTH = 64;

// An unknown merchant still costs one HMAC, so its refusal takes about as long as a wrong signature's.
const DECOY_SECRET = newV1Secret();

/**
 * The v1 credential check (docs/subscription-restore.md): `merchant` names the account, and
 * `signature` must be the HMAC of the body bytes under that account's v1 secret. 401 when it
 * is not proven who calls; 403 when the account exists but has no v1 secret (the service is
 * not enabled for it), as no signature could ever pass then and the merchant must ask for one.
 * Returns the account and the number of the secret that verified (accounts.v1_secret_generation).
 */
export async function authenticateV1(
  db: Database,
  merchant: string | undefined,
  signature: string | undefined,
  body: Buffer,
  now: Date = new Date(),
): Promise<{ accountId: string; secretGeneration: number }> {
  if (!merchant || !signature || merchant.length > MAX_MERCHANT_LENGTH) throw new ApiError('UNAUTHENTICATED', AUTHORIZATION_FAILED);
  const account = await db.account.findUnique({
    where: { id: merchant },
    select: { id: true, v1SigningSecret: true, v1PreviousSigningSecret: true, v1PreviousSecretExpiresAt: true, v1SecretGeneration: true },
  });
  if (!account) {
    verifyV1Signature(DECOY_SECRET, body, signature);
    throw new ApiError('UNAUTHENTICATED', AUTHORIZATION_FAILED);
  }
  if (!account.v1SigningSecret) throw new ApiError('PERMISSION_DENIED', NOT_ENABLED);
  // A secret that does not open means SECRETS_KEY changed: the operator's problem, so a 500.
  const key = secretsKey();
  const current = verifyV1Signature(openSecret(key, V1_SECRET_PURPOSE, account.v1SigningSecret), body, signature);
  // During a rotation's overlap the previous secret is checked too, whatever the first result,
  // so the answer takes as long whichever secret signed.
  const inOverlap = account.v1PreviousSigningSecret !== null && account.v1PreviousSecretExpiresAt !== null && account.v1PreviousSecretExpiresAt > now;
  const previous = inOverlap && verifyV1Signature(openSecret(key, V1_SECRET_PURPOSE, account.v1PreviousSigningSecret!), body, signature);
  if (!current && !previous) throw new ApiError('UNAUTHENTICATED', AUTHORIZATION_FAILED);
  return { accountId: account.id, secretGeneration: current ? account.v1SecretGeneration : account.v1SecretGeneration - 1 };
}
