import { ApiError } from '../../domain/errors';
import { lookupOf, secretMatches } from '../../domain/api-key-secret';
import { permissionsOfRole } from '../../domain/dashboard-roles';
import type { Context } from '../context';
import { authenticateSession, hasSessionCookie } from '../dashboard/session-auth';
import type { Database } from '../../prisma/client';
import { readRows, sqlStatement } from '../../prisma/statements';
import type { Principal } from './principal';
import type { SecretCache, SecretRecord } from './secret-cache';

/** RFC 7235: the scheme is case-insensitive and one or more spaces separate it from the credentials. */
const BEARER = /^bearer +(\S+)$/i;

const unauthenticated = () => new ApiError('UNAUTHENTICATED', 'A valid API key secret is required in `Authorization: Bearer <secret>`.');

/**
 * Resolves `Authorization: Bearer asec_…` to its key. A secret is valid until it is revoked
 * (by the rotation workflow, or by a later rotation) and, once demoted by a rotation, until
 * its `expires_at`: the workflow does the durable deactivation, the expiry check makes sure
 * a late workflow never extends the overlap.
 */
export async function authenticate(
  db: Database,
  authorization: string | undefined,
  now: Date,
  cache?: SecretCache,
): Promise<Principal> {
  const match = BEARER.exec(authorization ?? '');
  const presented = match?.[1];
  const lookup = presented ? lookupOf(presented) : null;
  if (!presented || !lookup) throw unauthenticated();

  const secret = cache ? await cache.read(lookup, now.getTime(), () => readSecret(db, lookup)) : await readSecret(db, lookup);
  if (!secret || !secretMatches(presented, secret.hash)) throw unauthenticated();
  if (secret.revoked_at || (secret.expires_at && secret.expires_at <= now)) throw unauthenticated();

  return {
    accountId: secret.account_id,
    apiKeyId: secret.api_key_id,
    channelIds: secret.channel_ids,
    permissions: new Set(secret.permissions),
  };
}

/**
 * One plain join on two unique keys: Prisma's nested select builds a JSONB lateral subquery
 * that costs PostgreSQL several times the CPU, and every request pays for this one.
 */
const readSecretSql = sqlStatement(
  'api_key_secrets.authenticate',
  `SELECT s.hash, s.expires_at, s.revoked_at, k.id AS api_key_id, k.account_id, to_json(k.permissions) AS permissions, to_json(k.channel_ids) AS channel_ids
   FROM api_key_secrets s JOIN api_keys k ON k.id = s.api_key_id
   WHERE s.lookup = $1`,
);

async function readSecret(db: Database, lookup: string): Promise<SecretRecord | undefined> {
  const [row] = await readRows<SecretRecord>(db, readSecretSql, [lookup]);
  return row;
}

/**
 * The caller of a /v2 operation: the API key of `Authorization` when one is sent; else the
 * dashboard session of the `bp_session` cookie, with its CSRF token in `x-csrf-token` required
 * on every operation (403 without), at account level with the permissions of the user's role.
 * The customer portal's transport resolves its caller itself and passes it as `portalPrincipal`.
 */
export async function authenticateCaller(ctx: Pick<Context, 'db' | 'authorization' | 'session' | 'now' | 'secretCache' | 'portalPrincipal'>): Promise<Principal> {
  if (ctx.portalPrincipal) return ctx.portalPrincipal;
  if (ctx.authorization === undefined && ctx.session && hasSessionCookie(ctx.session)) {
    const { actor } = await authenticateSession(ctx.db, ctx.session, ctx.now(), { requireCsrf: true });
    return { accountId: actor.accountId, apiKeyId: actor.userId, channelIds: [], permissions: new Set(permissionsOfRole(actor.role)), user: actor };
  }
  return authenticate(ctx.db, ctx.authorization, ctx.now(), ctx.secretCache);
}
