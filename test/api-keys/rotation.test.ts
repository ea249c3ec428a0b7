import { apiKeyRotationWorkflowId } from '../../domain/workflow-ids';
import { SecretCache } from '../../api/auth/secret-cache';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

async function newKey(): Promise<{ id: string; secret: string }> {
  const res = await platform.call('/v2/api-keys/create', { name: 'rotating', permissions: ['api-keys:get', 'api-keys:rotate'] });
  return { id: res.body.id, secret: res.body.secret };
}

const works = async (secret: string, id: string) => (await platform.call('/v2/api-keys/get', { id }, { secret })).status;

/** The rotation workflow is named by the secret the rotation issued: the current one. */
async function rotationWorkflowOf(apiKeyId: string) {
  const current = await platform.db.apiKeySecret.findMany({ where: { apiKeyId, expiresAt: null, revokedAt: null } });
  expect(current).toHaveLength(1);
  return platform.env.client.workflow.getHandle(apiKeyRotationWorkflowId(apiKeyId, current[0]!.id));
}

describe('api-keys/rotate', () => {
  it('keeps the old secret valid during the period and a durable workflow deactivates it at the end', async () => {
    const key = await newKey();
    const rotated = await platform.call('/v2/api-keys/rotate', { id: key.id, rotation_period: 3600 });
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.rotate_secret;
    expect(newSecret).toMatch(/^asec_/);
    expect(newSecret).not.toBe(key.secret);
    expect(Date.parse(rotated.body.rotate_at) - Date.parse(rotated.body.updated_at)).toBe(3_600_000);

    expect(await works(key.secret, key.id)).toBe(200);
    expect(await works(newSecret, key.id)).toBe(200);

    const workflow = await rotationWorkflowOf(key.id);
    await platform.env.sleep('59 minutes');
    expect(await works(key.secret, key.id)).toBe(200);

    await platform.env.sleep('2 minutes');
    expect(await workflow.result()).toEqual({ deactivated: true });
    // New runs end the overlap with the activity shared by every kind of secret (test/api-keys/rotation-replay.test.ts has the older runs).
    const scheduled = (await workflow.fetchHistory()).events!.map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    expect(scheduled).toEqual(['endSecretOverlap']);
    expect(await works(key.secret, key.id)).toBe(401);
    expect(await works(newSecret, key.id)).toBe(200);
  });

  it('survives a worker restart in the middle of the period', async () => {
    const key = await newKey();
    const rotated = await platform.call('/v2/api-keys/rotate', { id: key.id, rotation_period: 86_400 });
    const workflow = await rotationWorkflowOf(key.id);
    await platform.env.sleep('6 hours');
    await platform.restartWorker();
    expect(await works(key.secret, key.id)).toBe(200);
    await platform.env.sleep('19 hours');
    expect(await workflow.result()).toEqual({ deactivated: true });
    expect(await works(key.secret, key.id)).toBe(401);
    expect(await works(rotated.body.rotate_secret, key.id)).toBe(200);
  });

  it('a second rotation during an overlap revokes the oldest secret at once; only two are ever valid', async () => {
    const key = await newKey();
    const first = await platform.call('/v2/api-keys/rotate', { id: key.id, rotation_period: 3600 });
    const second = await platform.call('/v2/api-keys/rotate', { id: key.id, rotation_period: 3600 }, { secret: first.body.rotate_secret });
    expect(second.status).toBe(200);
    expect(await works(key.secret, key.id)).toBe(401);
    expect(await works(first.body.rotate_secret, key.id)).toBe(200);
    expect(await works(second.body.rotate_secret, key.id)).toBe(200);

    await platform.env.sleep('61 minutes');
    expect(await works(first.body.rotate_secret, key.id)).toBe(401);
    expect(await works(second.body.rotate_secret, key.id)).toBe(200);
  });

  it('a rotation period of 0 revokes the old secret immediately', async () => {
    const key = await newKey();
    const rotated = await platform.call('/v2/api-keys/rotate', { id: key.id, rotation_period: 0 });
    expect(await works(key.secret, key.id)).toBe(401);
    expect(await works(rotated.body.rotate_secret, key.id)).toBe(200);
  });

  it('refuses a period beyond 30 days', async () => {
    const key = await newKey();
    const res = await platform.call('/v2/api-keys/rotate', { id: key.id, rotation_period: 30 * 86_400 + 1 });
    expect(res.status).toBe(400);
    expect(res.body.context.constraints.rotation_period.type).toBe('MAX');
  });
});

describe('api-keys/rotate with the production secret cache', () => {
  const cached = usePlatform({ secretCache: new SecretCache(60_000) });

  it('stops accepting a secret revoked by this process at once, cache or not', async () => {
    const key = await cached.call('/v2/api-keys/create', { name: 'cached', permissions: ['api-keys:get'] });
    const get = (secret: string) => cached.call('/v2/api-keys/get', { id: key.body.id }, { secret });
    expect((await get(key.body.secret)).status).toBe(200);
    const rotated = await cached.call('/v2/api-keys/rotate', { id: key.body.id, rotation_period: 0 });
    expect((await get(key.body.secret)).status).toBe(401);
    expect((await get(rotated.body.rotate_secret)).status).toBe(200);
  });
});
