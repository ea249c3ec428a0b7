import { usePlatform } from '../support/platform';
import { BrowserSession, signedInUser } from './browser-session';

/** docs/api-keys.md, "Who issued a key", and docs/dashboard.md, "Team": keys name the user who saw their secret. */
const platform = usePlatform();

let admin: BrowserSession;
let adminId: string;

beforeAll(async () => {
  admin = await signedInUser(platform, 'key-admin@example.test', 'MERCHANT_ADMIN');
  adminId = (await admin.post('/dashboard/api/session/me')).body.user.id;
});

const userIdOf = async (b: BrowserSession) => (await b.post('/dashboard/api/session/me')).body.user.id as string;
const key = { name: 'issued key', permissions: ['webhooks:list'] };
const authenticates = async (secret: string) => (await platform.call('/v2/webhooks/list', {}, { secret })).status;

describe('issued_by_user_id', () => {
  it('names the dashboard user who created the key or last rotated it; a key made with an API key has none', async () => {
    const developer = await signedInUser(platform, 'key-developer@example.test', 'DEVELOPER');
    const developerId = await userIdOf(developer);
    const created = await developer.post('/v2/api-keys/create', key);
    expect(created).toMatchObject({ status: 200, body: { issued_by_user_id: developerId } });
    expect((await admin.post('/v2/api-keys/get', { id: created.body.id })).body.issued_by_user_id).toBe(developerId);

    const rotated = await admin.post('/v2/api-keys/rotate', { id: created.body.id, rotation_period: 0 });
    expect(rotated).toMatchObject({ status: 200, body: { issued_by_user_id: adminId } });
    const listed = await admin.post('/v2/api-keys/list', {});
    expect(listed.body.items.find((k: { id: string }) => k.id === created.body.id).issued_by_user_id).toBe(adminId);

    const byKey = await platform.call('/v2/api-keys/create', key);
    expect(byKey.status).toBe(200);
    expect(byKey.body).not.toHaveProperty('issued_by_user_id');
    const rotatedByKey = await platform.call('/v2/api-keys/rotate', { id: created.body.id, rotation_period: 0 });
    expect(rotatedByKey.body).not.toHaveProperty('issued_by_user_id');
  });
});

describe('removing a user offers to revoke the keys they issued', () => {
  it('lists the user’s active keys, and revokes them with the user when asked; not otherwise', async () => {
    const leaving = await signedInUser(platform, 'leaving@example.test', 'DEVELOPER');
    const leavingId = await userIdOf(leaving);
    const first = (await leaving.post('/v2/api-keys/create', { ...key, name: 'first of leaving' })).body;
    const second = (await leaving.post('/v2/api-keys/create', { ...key, name: 'second of leaving' })).body;
    const revokedAlready = (await leaving.post('/v2/api-keys/create', { ...key, name: 'revoked already' })).body;
    expect((await leaving.post('/v2/api-keys/revoke', { id: revokedAlready.id })).status).toBe(200);

    const issued = await admin.post('/dashboard/api/users/list-issued-api-keys', { user_id: leavingId });
    expect(issued.status).toBe(200);
    expect(issued.body.data.map((k: { id: string; name: string }) => [k.id, k.name])).toEqual([
      [second.id, 'second of leaving'],
      [first.id, 'first of leaving'],
    ]);

    expect((await admin.post('/dashboard/api/users/remove', { user_id: leavingId, revoke_api_keys: true })).status).toBe(204);
    for (const k of [first, second]) {
      expect((await admin.post('/v2/api-keys/get', { id: k.id })).body.status).toBe('REVOKED');
      expect(await authenticates(k.secret)).toBe(401);
    }
    const audit = await admin.post('/dashboard/api/audit-log/list', { action: 'api-keys/revoke' });
    expect(audit.body.data.map((e: { object_id: string }) => e.object_id)).toEqual(expect.arrayContaining([first.id, second.id]));

    const staying = await signedInUser(platform, 'keeps-keys@example.test', 'DEVELOPER');
    const kept = (await staying.post('/v2/api-keys/create', key)).body;
    expect((await admin.post('/dashboard/api/users/remove', { user_id: await userIdOf(staying) })).status).toBe(204);
    expect((await admin.post('/v2/api-keys/get', { id: kept.id })).body.status).toBe('ACTIVE');
    expect(await authenticates(kept.secret)).toBe(200);
  });

  it('is for admins only', async () => {
    const developer = await signedInUser(platform, 'nosy-developer@example.test', 'DEVELOPER');
    expect((await developer.post('/dashboard/api/users/list-issued-api-keys', { user_id: adminId })).status).toBe(403);
  });
});
