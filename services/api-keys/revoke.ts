import type { Client } from '@temporalio/client';
import { requireActiveApiKey } from '../../domain/api-key-status';
import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { cancelApiKeyOverlapEnd } from '../workflows/secret-rotation';
import { requireWithinCallerPermissions, type Caller } from './permission-ceiling';
import { lockApiKey, newestSecretRecord, recordRevocation } from './repository';

/**
 * api-keys/revoke (docs/api-keys.md) in the caller's transaction: the key locked, so a rotation
 * running at the same moment either ends before (its secrets are revoked too) or finds the key
 * REVOKED; refused (403) when it holds a permission the caller does not, as rotate is; 422
 * INCOMPATIBLE_STATUS once revoked. Every secret of the key is revoked at once.
 */
export async function revokeApiKey(deps: { now: () => Date }, tx: Prisma.TransactionClient, caller: Caller, input: { apiKeyId: string }) {
  const target = await lockApiKey(tx, caller.accountId, input.apiKeyId);
  if (!target) throw ApiError.notFound('API key', input.apiKeyId);
  requireWithinCallerPermissions(caller, target.permissions, 'An API key cannot revoke a key holding permissions it does not hold itself.');
  requireActiveApiKey(target, 'revoked');
  return recordRevocation(tx, target.id, deps.now());
}

/**
 * After the commit: the overlap workflow of the key's latest rotation ends now instead of
 * sleeping out its period (up to 30 days) to revoke a secret already revoked. Should this not
 * happen (a crash between, Temporal unreachable), that workflow wakes, finds the secret revoked
 * and does nothing; so a failure here is logged and the revocation, committed, is answered 200.
 */
export async function endRevokedKeyRotation(deps: { db: Prisma.TransactionClient; temporal: Client }, apiKeyId: string): Promise<void> {
  try {
    const newest = await newestSecretRecord(deps.db, apiKeyId);
    if (newest) await cancelApiKeyOverlapEnd(deps.temporal, apiKeyId, newest.id);
  } catch (error) {
    console.error(`api-keys/revoke: ${apiKeyId} is revoked; its overlap workflow, if any, was not cancelled and will end on its own: ${(error as Error).message}`);
  }
}
