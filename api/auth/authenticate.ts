import { ApiError } from '../../domain/errors';
import { lookupOf, secretMatches } from '../../domain/api-key-secret';
import type { Database } from '../../prisma/client';
import type { Principal } from './principal';

const unauthenticated = () => new ApiError('UNAUTHENTICATED', 'A valid API key secret is required in `Authorization: Bearer <secret>`.');

/**
 * Resolves `Authorization: Bearer asec_…` to its key. A secret is valid until it is revoked
 * (by the rotation workflow, or by a later rotation) and, once demoted by a rotation, until
 * its `expires_at`: the workflow does the durable deactivation, the expiry check makes sure
 * a late workflow never extends the overlap.
 */
export async function authenticate(db: Database, authorization: string | undefined, now: Date): Promise<Principal> {
  const match = /^Bearer (\S+)$/.exec(authorization ?? '');
  const presented = match?.[1];
  const lookup = presented ? lookupOf(presented) : null;
  if (!presented || !lookup) throw unauthenticated();

  const secret = await db.apiKeySecret.findUnique({
    where: { lookup },
    select: {
      hash: true,
      expiresAt: true,
      revokedAt: true,
      apiKey: { select: { id: true, accountId: true, permissions: true, channels: { select: { channelId: true } } } },
    },
  });
  if (!secret || !secretMatches(presented, secret.hash)) throw unauthenticated();
  if (secret.revokedAt || (secret.expiresAt && secret.expiresAt <= now)) throw unauthenticated();

  const key = secret.apiKey;
  return {
    accountId: key.accountId,
    apiKeyId: key.id,
    channelIds: key.channels.map((c) => c.channelId).sort(),
    permissions: new Set(key.permissions),
  };
}
