import { authenticate } from '../../api/auth/authenticate';
import { SecretCache } from '../../api/auth/secret-cache';
import { apiKeyRotationWorkflowId } from '../../domain/workflow-ids';
import { usePlatform } from '../support/platform';
import { waitFor } from '../webhooks/receiver';

/**
 * api-keys/revoke (docs/api-keys.md, "revoke"), over HTTP against the real platform. The API
 * caches secret records for a minute here, so "refused at once" means the revoking process
 * forgot the key, not that the cache happened to be cold.
 */
const platform = usePlatform({ secretCache: new SecretCache(60_000) });

async function newKey(permissions = ['api-keys:get', 'api-keys:rotate', 'api-keys:revoke'], extra: Record<string, unknown> = {}) {
  const res = await platform.call('/v2/api-keys/create', { name: 'to revoke', permissions, ...extra });
  expect(res.status).toBe(200);
  return { id: res.body.id as string, secret: res.body.secret as string };
}

const statusWith = async (secret: string, id: string) => (await platform.call('/v2/api-keys/get', { id }, { secret })).status;
const revoke = (id: string, secret?: string, headers?: Record<string, string>) => platform.call('/v2/api-keys/revoke', { id }, { secret, headers });

describe('api-keys/revoke', () => {
  it('revokes every secret at once, shows REVOKED with revoked_at, and refuses to revoke or rotate it again (422 INCOMPATIBLE_STATUS)', async () => {
    const key = await newKey();
    // Cached by this process now: only forgetting the key makes the next request read the revocation.
    expect(await statusWith(key.secret, key.id)).toBe(200);

    const revoked = await revoke(key.id);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: key.id, status: 'REVOKED', permissions: ['api-keys:get', 'api-keys:rotate', 'api-keys:revoke'] });
    expect(revoked.body.revoked_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(revoked.body.updated_at).toBe(revoked.body.revoked_at);

    const refused = await platform.call('/v2/api-keys/get', { id: key.id }, { secret: key.secret });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('UNAUTHENTICATED');
    expect(await platform.db.apiKeySecret.count({ where: { apiKeyId: key.id, revokedAt: null } })).toBe(0);

    const got = await platform.call('/v2/api-keys/get', { id: key.id });
    expect(got.body).toEqual(revoked.body);
    const listed = await platform.call('/v2/api-keys/list', { filters: { name: { operator: 'EQ', value: 'to revoke' } } });
    expect(listed.body.items.find((k: { id: string }) => k.id === key.id)).toEqual(revoked.body);
    const other = await newKey();
    expect((await platform.call('/v2/api-keys/get', { id: other.id })).body.status).toBe('ACTIVE');

    const again = await revoke(key.id);
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: 'INCOMPATIBLE_STATUS', context: { status: 'REVOKED' } });

    // A rotation would hand a revoked key a working secret again.
    const rotated = await platform.call('/v2/api-keys/rotate', { id: key.id, rotation_period: 0 });
    expect(rotated.status).toBe(422);
    expect(rotated.body).toMatchObject({ code: 'INCOMPATIBLE_STATUS', context: { status: 'REVOKED' } });
    expect(await platform.db.apiKeySecret.count({ where: { apiKeyId: key.id, revokedAt: null } })).toBe(0);
  });

  it('during a rotation: the previous and the new secret stop at once, rotate_at goes and the overlap workflow ends', async () => {
    const key = await newKey();
    const rotated = await platform.call('/v2/api-keys/rotate', { id: key.id, rotation_period: 3600 });
    expect(rotated.status).toBe(200);
    expect(rotated.body.rotate_at).toBeDefined();
    const newSecret: string = rotated.body.rotate_secret;
    expect(await statusWith(key.secret, key.id)).toBe(200);
    expect(await statusWith(newSecret, key.id)).toBe(200);
    const [current] = await platform.db.apiKeySecret.findMany({ where: { apiKeyId: key.id, expiresAt: null, revokedAt: null } });
    const overlap = platform.env.client.workflow.getHandle(apiKeyRotationWorkflowId(key.id, current!.id));
    expect((await overlap.describe()).status.name).toBe('RUNNING');

    const revoked = await revoke(key.id);
    expect(revoked.status).toBe(200);
    expect(revoked.body.rotate_at).toBeUndefined();
    expect(revoked.body.status).toBe('REVOKED');
    expect(await statusWith(key.secret, key.id)).toBe(401);
    expect(await statusWith(newSecret, key.id)).toBe(401);
    // The cancellation is a request the workflow then acts on: it ends CANCELLED instead of sleeping out the hour.
    await waitFor('the overlap workflow to end', async () => (await overlap.describe()).status.name !== 'RUNNING');
    expect((await overlap.describe()).status.name).toBe('CANCELLED');

    await platform.env.sleep('61 minutes');
    expect(await statusWith(key.secret, key.id)).toBe(401);
    expect(await statusWith(newSecret, key.id)).toBe(401);
  });

  it('a key may revoke itself: 200, then its own secret is refused', async () => {
    const key = await newKey();
    const revoked = await revoke(key.id, key.secret);
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('REVOKED');
    expect(await statusWith(key.secret, key.id)).toBe(401);
  });

  it('another API process refuses the secret once its cached record is older than its TTL', async () => {
    const key = await newKey();
    const elsewhere = new SecretCache(5_000);
    const t0 = Date.now();
    await authenticate(platform.db, `Bearer ${key.secret}`, new Date(t0), elsewhere);
    expect((await revoke(key.id)).status).toBe(200);
    await expect(authenticate(platform.db, `Bearer ${key.secret}`, new Date(t0 + 4_999), elsewhere)).resolves.toMatchObject({ apiKeyId: key.id });
    await expect(authenticate(platform.db, `Bearer ${key.secret}`, new Date(t0 + 5_000), elsewhere)).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('permissions: api-keys:revoke, an account-level key, and no key holding more than the caller', async () => {
    const target = await newKey(['api-keys:get', 'invoices:void']);

    const withoutPermission = await newKey(['api-keys:get']);
    const denied = await revoke(target.id, withoutPermission.secret);
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'PERMISSION_DENIED', context: { required_permission: 'api-keys:revoke' } });

    const bound = await newKey(['api-keys:get', 'api-keys:revoke', 'invoices:void'], { channel_ids: [platform.channelIds[0]] });
    const channelBound = await revoke(target.id, bound.secret);
    expect(channelBound.status).toBe(403);
    expect(channelBound.body.code).toBe('PERMISSION_DENIED');

    const weaker = await newKey(['api-keys:get', 'api-keys:revoke']);
    const beyond = await revoke(target.id, weaker.secret);
    expect(beyond.status).toBe(403);
    expect(beyond.body).toMatchObject({ code: 'PERMISSION_DENIED', context: { permissions: ['invoices:void'] } });

    expect(await statusWith(target.secret, target.id)).toBe(200);
    expect((await platform.call('/v2/api-keys/get', { id: target.id })).body.status).toBe('ACTIVE');
  });

  it('validation and unknown keys: 400 with the field in context.constraints, 404 for a key of no account of the caller', async () => {
    const missing = await platform.call('/v2/api-keys/revoke', {});
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('VALIDATION');
    expect(missing.body.context.constraints.id.type).toBe('REQUIRED');

    const wrongPrefix = await platform.call('/v2/api-keys/revoke', { id: 'cust_0123456789' });
    expect(wrongPrefix.status).toBe(400);
    expect(wrongPrefix.body.context.constraints.id).toBeDefined();

    const unknownField = await platform.call('/v2/api-keys/revoke', { id: (await newKey()).id, reason: 'leaked' });
    expect(unknownField.status).toBe(400);
    expect(unknownField.body.context.constraints.reason.type).toBe('UNKNOWN_FIELD');

    const unknown = await platform.call('/v2/api-keys/revoke', { id: 'akey_01jzzzzzzzzzzzzzzzzzzzzzzz' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('NOT_FOUND');
  });

  it('replays the first answer under the same Idempotency-Key instead of refusing the second request', async () => {
    const key = await newKey();
    const first = await revoke(key.id, undefined, { 'idempotency-key': `revoke-${key.id}` });
    const second = await revoke(key.id, undefined, { 'idempotency-key': `revoke-${key.id}` });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
  });
});
