import type { Client } from '@temporalio/client';
import { requireActiveApiKey } from '../../domain/api-key-status';
import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { rotateSecret } from '../secrets/rotation';
import { requireWithinCallerPermissions, type Caller } from './permission-ceiling';
import { lockApiKey, recordRotation } from './repository';

/**
 * api-keys/rotate (docs/api-keys.md) in the caller's transaction: the key locked, refused (403)
 * when it holds a permission the caller does not, 422 INCOMPATIBLE_STATUS when it was revoked, its
 * secret rotated and `rotateAt` recorded.
 */
export async function rotateApiKeySecret(
  deps: { temporal: Client; now: () => Date },
  tx: Prisma.TransactionClient,
  caller: Caller,
  input: { apiKeyId: string; rotationPeriodSeconds: number },
) {
  const target = await lockApiKey(tx, caller.accountId, input.apiKeyId);
  if (!target) throw ApiError.notFound('API key', input.apiKeyId);
  requireWithinCallerPermissions(
    caller,
    target.permissions,
    'An API key cannot rotate a key holding permissions it does not hold itself: the new secret would hand them over.',
  );
  requireActiveApiKey(target, 'rotated');
  const now = deps.now();
  const rotated = await rotateSecret(
    { tx, temporal: deps.temporal },
    { kind: 'apiKey', ownerId: input.apiKeyId, accountId: caller.accountId, rotationPeriodSeconds: input.rotationPeriodSeconds, now },
  );
  const row = await recordRotation(tx, input.apiKeyId, rotated.expiresAt, now, caller.user?.userId ?? null);
  return { row, secret: rotated.secret };
}
