import { usePlatform } from '../support/platform';
import { BrowserSession, PASSWORD, signedInUser, tokenOf } from './browser-session';

/** docs/dashboard.md, "Roles": admins manage people and read the audit log. */
const platform = usePlatform();

let admin: BrowserSession;
let adminId: string;
const AGENT = 'dashboard-test-agent/1.0';

beforeAll(async () => {
  admin = await signedInUser(platform, 'owner@example.test', 'MERCHANT_ADMIN');
  adminId = (await admin.post('/dashboard/api/session/me')).body.user.id;
});

describe('team', () => {
  it('an admin invites; the link signs the person in with the role; a role change applies on their next request', async () => {
    const invited = await admin.post('/dashboard/api/users/invite', { email: 'New.Person@example.test', role: 'SUPPORT' });
    expect(invited).toMatchObject({
      status: 200,
      body: { invitation_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/accept-invitation\?token=[\w-]{43}$/), expires_at: expect.stringMatching(/Z$/) },
    });
    expect(Date.parse(invited.body.expires_at) - Date.now()).toBeGreaterThan(71 * 3600_000);
    expect((await admin.post('/dashboard/api/users/invite', { email: 'owner@example.test', role: 'SUPPORT' })).body.code).toBe('USER_EXISTS');

    const person = new BrowserSession(() => platform.baseUrl);
    const accepted = await person.post('/dashboard/api/session/accept-invitation', { token: tokenOf(invited.body.invitation_url), password: PASSWORD });
    expect(accepted.body.user).toMatchObject({ email: 'new.person@example.test', role: 'SUPPORT' });
    const key = { name: 'by a new developer', permissions: ['webhooks:list'] };
    expect((await person.post('/v2/api-keys/create', key)).status).toBe(403);
    expect((await person.post('/dashboard/api/users/list')).status).toBe(403);

    const changed = await admin.post('/dashboard/api/users/update-role', { user_id: accepted.body.user.id, role: 'DEVELOPER' });
    expect(changed).toMatchObject({ status: 200, body: { id: accepted.body.user.id, role: 'DEVELOPER' } });
    expect((await person.post('/v2/api-keys/create', key)).status).toBe(200);

    const listed = await admin.post('/dashboard/api/users/list', { limit: 1 });
    expect(listed.body.data).toHaveLength(1);
    expect(listed.body.next_cursor).toEqual(expect.any(String));
    const rest = await admin.post('/dashboard/api/users/list', { limit: 10, cursor: listed.body.next_cursor });
    expect([...listed.body.data, ...rest.body.data].map((u: { email: string }) => u.email)).toEqual(['new.person@example.test', 'owner@example.test']);
    expect(rest.body.next_cursor).toBeNull();
  });

  it('never leaves the account without a MERCHANT_ADMIN', async () => {
    expect(await admin.post('/dashboard/api/users/update-role', { user_id: adminId, role: 'SUPPORT' })).toMatchObject({ status: 422, body: { code: 'LAST_ADMIN' } });
    expect(await admin.post('/dashboard/api/users/remove', { user_id: adminId })).toMatchObject({ status: 422, body: { code: 'LAST_ADMIN' } });
    expect((await admin.post('/dashboard/api/users/remove', { user_id: 'usr_00000000000000000000000000' })).status).toBe(404);
  });
});

describe('audit log', () => {
  it('records who changed what through /v2 and the dashboard, from where; reads are not recorded; filters and pages', async () => {
    const developer = await signedInUser(platform, 'dev@example.test', 'DEVELOPER');
    const developerId = (await developer.post('/dashboard/api/session/me')).body.user.id;
    const headers = { 'user-agent': AGENT };
    await new Promise((resolve) => setTimeout(resolve, 10));
    const startedAt = new Date().toISOString();

    const customer = await admin.post('/v2/customers/create', { type: 'INDIVIDUAL', email: 'audited@example.com' }, { headers });
    expect(customer.status).toBe(200);
    const updated = await admin.post('/v2/customers/update', { id: customer.body.id, first_name: 'Audited' }, { headers });
    expect(updated.status).toBe(200);
    await admin.post('/v2/customers/list', {}, { headers });
    await admin.post('/v2/customers/get', { id: customer.body.id }, { headers });
    const key = await developer.post('/v2/api-keys/create', { name: 'audited key', permissions: ['webhooks:list'] }, { headers });
    expect(key.status).toBe(200);
    const refused = await developer.post('/v2/customers/create', { type: 'INDIVIDUAL', email: 'no@example.com' }, { headers });
    expect(refused.status).toBe(403);
    await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'by-api-key@example.com' });

    const all = await admin.post('/dashboard/api/audit-log/list', { created_at: { from: startedAt } });
    expect(all.status).toBe(200);
    expect(all.body.data.map((e: { action: string }) => e.action)).toEqual(['api-keys/create', 'customers/update', 'customers/create']);
    expect(all.body.data[2]).toEqual({
      id: expect.stringMatching(/^aud_/),
      actor_type: 'USER',
      user_id: adminId,
      user_email: 'owner@example.test',
      action: 'customers/create',
      object_id: customer.body.id,
      ip: '127.0.0.1',
      user_agent: AGENT,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    });
    expect(all.body.data[0]).toMatchObject({ user_id: developerId, user_email: 'dev@example.test', object_id: key.body.id });

    const byUser = await admin.post('/dashboard/api/audit-log/list', { user_id: developerId });
    expect(byUser.body.data.map((e: { action: string }) => e.action)).toEqual(['api-keys/create', 'session/accept-invitation']);
    const byAction = await admin.post('/dashboard/api/audit-log/list', { action: 'customers/update' });
    expect(byAction.body.data).toHaveLength(1);
    const byObject = await admin.post('/dashboard/api/audit-log/list', { object_id: customer.body.id });
    expect(byObject.body.data.map((e: { action: string }) => e.action)).toEqual(['customers/update', 'customers/create']);
    const before = await admin.post('/dashboard/api/audit-log/list', { created_at: { to: startedAt } });
    expect(before.body.data.every((e: { created_at: string }) => e.created_at < startedAt)).toBe(true);
    expect(before.body.data.length).toBeGreaterThan(0);

    const first = await admin.post('/dashboard/api/audit-log/list', { object_id: customer.body.id, limit: 1 });
    const second = await admin.post('/dashboard/api/audit-log/list', { object_id: customer.body.id, limit: 1, cursor: first.body.next_cursor });
    expect([first.body.data[0].action, second.body.data[0].action]).toEqual(['customers/update', 'customers/create']);
    expect(second.body.next_cursor).toBeNull();
    const mismatched = await admin.post('/dashboard/api/audit-log/list', { action: 'customers/create', cursor: first.body.next_cursor });
    expect(mismatched.status).toBe(400);

    expect((await developer.post('/dashboard/api/audit-log/list')).status).toBe(403);
  });

  it('records the dashboard\'s own changes: invitations, role changes, removals, sign-in and sign-out', async () => {
    const invited = await admin.post('/dashboard/api/users/invite', { email: 'short-lived@example.test', role: 'SUPPORT' });
    const person = new BrowserSession(() => platform.baseUrl);
    const accepted = await person.post('/dashboard/api/session/accept-invitation', { token: tokenOf(invited.body.invitation_url), password: PASSWORD });
    const personId = accepted.body.user.id;
    await person.post('/dashboard/api/session/sign-out');
    await person.post('/dashboard/api/session/sign-in', { email: 'short-lived@example.test', password: PASSWORD });
    await admin.post('/dashboard/api/users/update-role', { user_id: personId, role: 'DEVELOPER' });
    await admin.post('/dashboard/api/users/remove', { user_id: personId });

    const byAdmin = await admin.post('/dashboard/api/audit-log/list', { user_id: adminId, limit: 3 });
    expect(byAdmin.body.data.map((e: { action: string; object_id: string }) => [e.action, e.object_id])).toEqual([
      ['users/remove', personId],
      ['users/update-role', personId],
      ['users/invite', expect.stringMatching(/^uinv_/)],
    ]);
    const byPerson = await admin.post('/dashboard/api/audit-log/list', { user_id: personId });
    expect(byPerson.body.data.map((e: { action: string; user_email: string }) => [e.action, e.user_email])).toEqual([
      ['session/sign-in', 'short-lived@example.test'],
      ['session/sign-out', 'short-lived@example.test'],
      ['session/accept-invitation', 'short-lived@example.test'],
    ]);
  });
});

describe('what PostgreSQL cannot store', () => {
  it('U+0000 or an unpaired surrogate anywhere in a body is 400 FORMAT before the route runs, not a 500', async () => {
    for (const [path, body, field] of [
      ['/dashboard/api/users/remove', { user_id: 'usr_\u0000' }, 'user_id'],
      ['/dashboard/api/audit-log/list', { user_id: 'usr_\ud800' }, 'user_id'],
      ['/dashboard/api/audit-log/list', { action: 'x\u0000' }, 'action'],
    ] as const) {
      const res = await admin.post(path, body);
      expect({ path, status: res.status, constraint: res.body.context?.constraints?.[field]?.type }).toEqual({ path, status: 400, constraint: 'FORMAT' });
    }
  });
});
