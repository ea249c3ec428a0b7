import { permissionsOfRole } from '../../domain/dashboard-roles';
import { usePlatform } from '../support/platform';
import { BrowserSession, signedInUser } from './browser-session';

/** docs/dashboard.md, "Roles" and "Security": the dashboard calls /v2 with its cookie and CSRF token. */
const platform = usePlatform();

const XSS = '<img src=x onerror=alert(1)>';

let admin: BrowserSession;
let developer: BrowserSession;
let support: BrowserSession;

beforeAll(async () => {
  admin = await signedInUser(platform, 'admin@example.test', 'MERCHANT_ADMIN');
  developer = await signedInUser(platform, 'developer@example.test', 'DEVELOPER');
  support = await signedInUser(platform, 'support@example.test', 'SUPPORT');
});

const customer = (overrides: Record<string, unknown> = {}) => ({ type: 'INDIVIDUAL', email: 'ada@example.com', first_name: 'Ada', ...overrides });

describe('CSRF', () => {
  it('refuses a cross-site style POST to /v2 that carries the cookie but not the token, and changes nothing', async () => {
    const before = await platform.db.customer.count();
    const noToken = await admin.post('/v2/customers/create', customer(), { csrf: false });
    expect(noToken).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED', context: { header: 'x-csrf-token' } } });
    const wrongToken = await admin.post('/v2/customers/create', customer(), { csrf: `${admin.csrf![0] === 'A' ? 'B' : 'A'}${admin.csrf!.slice(1)}` });
    expect(wrongToken.status).toBe(403);
    const otherSessionsToken = await admin.post('/v2/customers/create', customer(), { csrf: support.csrf });
    expect(otherSessionsToken.status).toBe(403);
    expect(await platform.db.customer.count()).toBe(before);
    expect((await admin.post('/v2/customers/create', customer())).status).toBe(200);
  });

  it('refuses /dashboard/api changes without the token (an admin inviting someone), and requests another site made', async () => {
    const noToken = await admin.post('/dashboard/api/users/invite', { email: 'csrf@example.test', role: 'MERCHANT_ADMIN' }, { csrf: false });
    expect(noToken).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED' } });
    expect((await admin.post('/dashboard/api/session/sign-out', {}, { csrf: false })).status).toBe(403);
    const crossSite = await admin.post('/dashboard/api/users/invite', { email: 'csrf@example.test', role: 'MERCHANT_ADMIN' }, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite).toMatchObject({ status: 403, body: { context: { sec_fetch_site: 'cross-site' } } });
    const crossSiteV2 = await admin.post('/v2/customers/list', {}, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSiteV2.status).toBe(403);
    expect(await platform.db.dashboardInvitation.count({ where: { email: 'csrf@example.test' } })).toBe(0);
    expect((await admin.post('/dashboard/api/session/me')).status).toBe(200);
  });

  it('answers 401 to a cookie of no session and leaves API keys as they were', async () => {
    const stranger = new BrowserSession(() => platform.baseUrl);
    stranger.cookie = 'not-a-session';
    expect((await stranger.post('/v2/customers/list', {}, { csrf: 'x' })).status).toBe(401);
    expect((await platform.call('/v2/customers/list', {}, { headers: { cookie: `bp_session=${admin.cookie}` } })).status).toBe(200);
  });
});

describe('role permissions on /v2', () => {
  it('SUPPORT reads but cannot void, refund or create', async () => {
    expect((await support.post('/v2/invoices/list', {})).status).toBe(200);
    expect((await support.post('/v2/customers/list', {})).status).toBe(200);
    const voided = await support.post('/v2/invoices/void', { id: 'inv_00000000000000000000000000' });
    expect(voided).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED', context: { required_permission: 'invoices:void' } } });
    expect(voided.body.message).toContain('SUPPORT');
    expect((await support.post('/v2/invoices/refund', { id: 'inv_00000000000000000000000000', amount: 1 })).status).toBe(403);
    expect((await support.post('/v2/customers/create', customer())).status).toBe(403);
    expect((await support.post('/v2/api-keys/create', { name: 'k', permissions: ['invoices:get'] })).status).toBe(403);
  });

  it('MERCHANT_ADMIN passes the permission check of invoices/void (404: no such invoice)', async () => {
    const voided = await admin.post('/v2/invoices/void', { id: 'inv_00000000000000000000000000' });
    expect(voided).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });

  it('DEVELOPER creates an account-level key within the DEVELOPER set, not beyond it, and cannot void', async () => {
    const created = await developer.post('/v2/api-keys/create', { name: 'from the dashboard', permissions: ['webhooks:create', 'invoices:list'] });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ permissions: ['webhooks:create', 'invoices:list'], channel_ids: [] });
    const withKey = await platform.call('/v2/invoices/list', {}, { secret: created.body.secret });
    expect(withKey.status).toBe(200);

    const beyond = await developer.post('/v2/api-keys/create', { name: 'too much', permissions: ['invoices:get', 'invoices:void', 'invoices:refund'] });
    expect(beyond).toMatchObject({ status: 403, body: { code: 'PERMISSION_DENIED', context: { permissions: ['invoices:void', 'invoices:refund'] } } });
    expect((await developer.post('/v2/invoices/void', { id: 'inv_00000000000000000000000000' })).status).toBe(403);

    const admins = await admin.post('/v2/api-keys/create', { name: 'admin key', permissions: ['invoices:void'] });
    expect(admins.status).toBe(200);
    const rotate = await developer.post('/v2/api-keys/rotate', { id: admins.body.id, rotation_period: 0 });
    expect(rotate).toMatchObject({ status: 403, body: { context: { permissions: ['invoices:void'] } } });
  });

  it('me lists exactly the role permissions', async () => {
    for (const [browser, role] of [[admin, 'MERCHANT_ADMIN'], [developer, 'DEVELOPER'], [support, 'SUPPORT']] as const) {
      const me = await browser.post('/dashboard/api/session/me');
      expect(me.body.permissions).toEqual(permissionsOfRole(role));
    }
    const developerPermissions = permissionsOfRole('DEVELOPER');
    expect(developerPermissions).toEqual(expect.arrayContaining(['api-keys:create', 'api-keys:rotate', 'webhooks:redeliver', 'invoices:list', 'customers:get']));
    expect(developerPermissions).not.toEqual(expect.arrayContaining(['invoices:void']));
    expect(permissionsOfRole('SUPPORT').every((p) => /:(get|list|download|summary)(-|$)/.test(p))).toBe(true);
    expect(permissionsOfRole('SUPPORT')).toEqual(expect.arrayContaining(['meters:get', 'meters:list', 'usage:summary']));
    expect(permissionsOfRole('SUPPORT')).not.toEqual(expect.arrayContaining(['usage-events:ingest']));
  });
});

describe('stored markup comes back as data', () => {
  it('a customer named with an XSS payload is stored and returned as the same JSON string', async () => {
    const created = await admin.post('/v2/customers/create', customer({ first_name: XSS, last_name: '"></script><script>alert(2)</script>' }));
    expect(created.status).toBe(200);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    expect(created.body.first_name).toBe(XSS);
    const read = await support.post('/v2/customers/get', { id: created.body.id });
    expect(read.headers.get('content-type')).toMatch(/^application\/json/);
    expect(read.body).toMatchObject({ first_name: XSS, last_name: '"></script><script>alert(2)</script>' });

    const invited = await admin.post('/dashboard/api/users/invite', { email: `${XSS}@example.test`, role: 'SUPPORT' });
    expect(invited.status).toBe(400);
    const log = await admin.post('/dashboard/api/audit-log/list', { object_id: created.body.id });
    expect(log.headers.get('content-type')).toMatch(/^application\/json/);
    expect(log.body.data).toHaveLength(1);
  });
});

describe('a removed user', () => {
  it('loses their session at once, on /dashboard/api and on /v2', async () => {
    const leaving = await signedInUser(platform, 'leaving@example.test', 'DEVELOPER');
    const me = await leaving.post('/dashboard/api/session/me');
    expect((await leaving.post('/v2/api-keys/list', {})).status).toBe(200);
    const removed = await admin.post('/dashboard/api/users/remove', { user_id: me.body.user.id });
    expect(removed.status).toBe(204);
    expect((await leaving.post('/v2/api-keys/list', {})).status).toBe(401);
    expect((await leaving.post('/dashboard/api/session/me')).status).toBe(401);
    expect(await platform.db.dashboardSession.count({ where: { userId: me.body.user.id } })).toBe(0);
  });
});
