import { hashDashboardToken } from '../../domain/dashboard-tokens';
import { createAccount, createChannel } from '../../scripts/operator/accounts';
import { usePlatform } from '../support/platform';
import { BrowserSession, invitationToken, PASSWORD, serverWithClock, signedInUser } from './browser-session';

const platform = usePlatform();
// Each refused attempt held a second would only slow the file (refusal-tarpit.test.ts tests the hold).
process.env.DASHBOARD_PUBLIC_REFUSAL_HOLD_MS = '1';
const HOUR = 3600_000;

const browser = () => new BrowserSession(() => platform.baseUrl);

describe('invitations (docs/dashboard.md, "Sessions")', () => {
  it('an invitation shows its e-mail, role and account, then signs the person in once: a second use is refused', async () => {
    const token = await invitationToken(platform, 'Once@Example.test', 'DEVELOPER');
    const b = browser();
    const shown = await b.post('/dashboard/api/session/invitation', { token });
    expect(shown).toMatchObject({ status: 200, body: { email: 'once@example.test', role: 'DEVELOPER', account_name: 'Test account' } });
    expect(shown.headers.get('set-cookie')).toBeNull();

    const accepted = await b.post('/dashboard/api/session/accept-invitation', { token, password: PASSWORD });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toEqual({
      user: { id: expect.stringMatching(/^usr_/), email: 'once@example.test', role: 'DEVELOPER', account_id: platform.accountId, created_at: expect.any(String), totp_enabled: false },
      csrf_token: expect.any(String),
    });
    const [cookie, device] = accepted.headers.getSetCookie();
    expect(cookie).toMatch(/^bp_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(device).toMatch(/^bp_device=[\w-]{43}; Path=\/dashboard\/api\/session; Max-Age=7776000; HttpOnly; SameSite=Strict$/);

    const again = await browser().post('/dashboard/api/session/accept-invitation', { token, password: 'another password!' });
    expect(again).toMatchObject({ status: 422, body: { code: 'INVITATION_INVALID', context: { reason: 'USED' } } });
    expect((await browser().post('/dashboard/api/session/invitation', { token })).body.context.reason).toBe('USED');
  });

  it('expires after 72 hours', async () => {
    const clock = { now: new Date() };
    const other = await serverWithClock(platform, clock);
    try {
      const token = await invitationToken(platform, 'late@example.test', 'SUPPORT', clock.now);
      clock.now = new Date(clock.now.getTime() + 72 * HOUR + 1000);
      const b = new BrowserSession(() => other.baseUrl);
      const refused = await b.post('/dashboard/api/session/accept-invitation', { token, password: PASSWORD });
      expect(refused).toMatchObject({ status: 422, body: { code: 'INVITATION_INVALID', context: { reason: 'EXPIRED' } } });
      expect(b.cookie).toBeUndefined();
      expect(await platform.db.dashboardUser.count({ where: { email: 'late@example.test' } })).toBe(0);
    } finally {
      await other.server.close();
    }
  });

  it('of one link used twice at once, or of two links for one e-mail, exactly one signs in', async () => {
    const token = await invitationToken(platform, 'race@example.test', 'SUPPORT');
    const same = await Promise.all([0, 1].map(() => browser().post('/dashboard/api/session/accept-invitation', { token, password: PASSWORD })));
    expect(same.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(same.find((r) => r.status === 422)!.body.code).toBe('INVITATION_INVALID');

    const tokens = [await invitationToken(platform, 'twice@example.test', 'SUPPORT'), await invitationToken(platform, 'twice@example.test', 'DEVELOPER')];
    const both = await Promise.all(tokens.map((t) => browser().post('/dashboard/api/session/accept-invitation', { token: t, password: PASSWORD })));
    expect(both.map((r) => r.status).sort()).toEqual([200, 422]);
    expect(both.find((r) => r.status === 422)!.body.code).toBe('USER_EXISTS');
    expect(await platform.db.dashboardUser.count({ where: { email: 'twice@example.test' } })).toBe(1);
  });

  it('refuses a short password without using the invitation', async () => {
    const token = await invitationToken(platform, 'short@example.test', 'SUPPORT');
    const refused = await browser().post('/dashboard/api/session/accept-invitation', { token, password: 'short' });
    expect(refused).toMatchObject({ status: 400, body: { code: 'VALIDATION', context: { constraints: { password: { type: 'MIN' } } } } });
    expect((await browser().post('/dashboard/api/session/accept-invitation', { token, password: PASSWORD })).status).toBe(200);
  });
});

describe('sign-in, me and sign-out', () => {
  it('signs in, reads me, signs out: the session row is deleted and the cookie stops working', async () => {
    await signedInUser(platform, 'inout@example.test', 'MERCHANT_ADMIN');
    const b = browser();
    const wrong = await b.post('/dashboard/api/session/sign-in', { email: 'inout@example.test', password: 'not the password' });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
    const unknown = await b.post('/dashboard/api/session/sign-in', { email: 'nobody@example.test', password: PASSWORD });
    expect(unknown).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS', message: wrong.body.message } });

    const signedIn = await b.post('/dashboard/api/session/sign-in', { email: ' InOut@example.test ', password: PASSWORD });
    expect(signedIn.status).toBe(200);
    const me = await b.post('/dashboard/api/session/me', {}, { csrf: false });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      user: { email: 'inout@example.test', role: 'MERCHANT_ADMIN', account_id: platform.accountId, totp_enabled: false },
      account: { id: platform.accountId, name: 'Test account' },
      csrf_token: signedIn.body.csrf_token,
    });
    expect(me.body.permissions).toContain('invoices:void');

    const token = b.cookie!;
    const out = await b.post('/dashboard/api/session/sign-out');
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(/^bp_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0/);
    expect(await platform.db.dashboardSession.count({ where: { tokenHash: hashDashboardToken(token) } })).toBe(0);
    b.cookie = token;
    expect(await b.post('/dashboard/api/session/me')).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
  });

  it('rotates the session on sign-in: the token held before no longer works, a new one does', async () => {
    const b = await signedInUser(platform, 'rotate@example.test', 'SUPPORT');
    const before = { cookie: b.cookie!, csrf: b.csrf! };
    const again = await b.post('/dashboard/api/session/sign-in', { email: 'rotate@example.test', password: PASSWORD });
    expect(again.status).toBe(200);
    expect(b.cookie).not.toBe(before.cookie);
    expect(b.csrf).not.toBe(before.csrf);
    expect((await b.post('/dashboard/api/session/me')).status).toBe(200);

    const stale = new BrowserSession(() => platform.baseUrl);
    stale.cookie = before.cookie;
    expect((await stale.post('/dashboard/api/session/me')).status).toBe(401);
  });

  it('marks the cookie Secure when a trusted proxy says the request came over TLS, and only then', async () => {
    await signedInUser(platform, 'tls@example.test', 'SUPPORT');
    const clock = { now: new Date() };
    const trusting = await serverWithClock(platform, clock, { trustProxy: true });
    const headers = { 'x-forwarded-proto': 'https' };
    try {
      const viaProxy = await new BrowserSession(() => trusting.baseUrl).post('/dashboard/api/session/sign-in', { email: 'tls@example.test', password: PASSWORD }, { headers });
      expect(viaProxy.headers.get('set-cookie')).toMatch(/; Secure$/);
      const direct = await browser().post('/dashboard/api/session/sign-in', { email: 'tls@example.test', password: PASSWORD }, { headers });
      expect(direct.headers.get('set-cookie')).not.toMatch(/Secure/);
    } finally {
      await trusting.server.close();
    }
  });
});

describe('the __Host- cookie over TLS', () => {
  it('names the cookie __Host-bp_session where the request is HTTPS, and reads only that name there', async () => {
    await signedInUser(platform, 'host-prefix@example.test', 'SUPPORT');
    const clock = { now: new Date() };
    const trusting = await serverWithClock(platform, clock, { trustProxy: true });
    const post = (path: string, headers: Record<string, string>, body: unknown = {}) =>
      fetch(`${trusting.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    const https = { 'x-forwarded-proto': 'https' };
    try {
      const signedIn = await post('/dashboard/api/session/sign-in', https, { email: 'host-prefix@example.test', password: PASSWORD });
      const cookie = signedIn.headers.getSetCookie().find((c) => c.includes('bp_session='))!;
      expect(cookie).toMatch(/^__Host-bp_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
      const token = cookie.split(';')[0]!.split('=')[1]!;
      expect((await post('/dashboard/api/session/me', { ...https, cookie: `__Host-bp_session=${token}` })).status).toBe(200);
      expect((await post('/dashboard/api/session/me', { ...https, cookie: `bp_session=${token}` })).status).toBe(401);
      expect((await post('/dashboard/api/session/me', { cookie: `__Host-bp_session=${token}` })).status).toBe(401);
      expect((await post('/v2/customers/list', { ...https, cookie: `bp_session=${token}`, 'x-csrf-token': ((await signedIn.json()) as { csrf_token: string }).csrf_token })).status).toBe(401);

      const me = (await (await post('/dashboard/api/session/me', { ...https, cookie: `__Host-bp_session=${token}` })).json()) as { csrf_token: string };
      const out = await post('/dashboard/api/session/sign-out', { ...https, cookie: `__Host-bp_session=${token}`, 'x-csrf-token': me.csrf_token });
      expect(out.status).toBe(204);
      expect(out.headers.get('set-cookie')).toMatch(/^__Host-bp_session=; Path=\/; HttpOnly; SameSite=Strict; Max-Age=0; Secure$/);
    } finally {
      await trusting.server.close();
    }
  });
});

describe('idle and absolute expiry', () => {
  it('ends a session unused for 30 minutes; use within that keeps it alive', async () => {
    const clock = { now: new Date() };
    const other = await serverWithClock(platform, clock);
    try {
      await signedInUser(platform, 'idle@example.test', 'SUPPORT');
      const b = new BrowserSession(() => other.baseUrl);
      expect((await b.post('/dashboard/api/session/sign-in', { email: 'idle@example.test', password: PASSWORD })).status).toBe(200);
      clock.now = new Date(clock.now.getTime() + 29 * 60_000);
      expect((await b.post('/dashboard/api/session/me')).status).toBe(200);
      clock.now = new Date(clock.now.getTime() + 29 * 60_000);
      expect((await b.post('/dashboard/api/session/me')).status).toBe(200);
      clock.now = new Date(clock.now.getTime() + 30 * 60_000 + 1);
      expect((await b.post('/dashboard/api/session/me')).status).toBe(401);
    } finally {
      await other.server.close();
    }
  });

  it('ends a session 12 hours after sign-in however busy it is', async () => {
    const clock = { now: new Date() };
    const other = await serverWithClock(platform, clock);
    try {
      await signedInUser(platform, 'absolute@example.test', 'SUPPORT');
      const b = new BrowserSession(() => other.baseUrl);
      expect((await b.post('/dashboard/api/session/sign-in', { email: 'absolute@example.test', password: PASSWORD })).status).toBe(200);
      const start = clock.now.getTime();
      for (let minutes = 20; minutes < 12 * 60; minutes += 20) {
        clock.now = new Date(start + minutes * 60_000);
        expect((await b.post('/dashboard/api/session/me')).status).toBe(200);
      }
      clock.now = new Date(start + 12 * HOUR);
      expect((await b.post('/dashboard/api/session/me')).status).toBe(401);
    } finally {
      await other.server.close();
    }
  });
});

describe('expired rows', () => {
  it('a sign-in deletes sessions past either expiry that were never presented again', async () => {
    const clock = { now: new Date() };
    const other = await serverWithClock(platform, clock);
    try {
      await signedInUser(platform, 'purge@example.test', 'SUPPORT');
      const abandoned = new BrowserSession(() => other.baseUrl);
      expect((await abandoned.post('/dashboard/api/session/sign-in', { email: 'purge@example.test', password: PASSWORD })).status).toBe(200);
      const row = { tokenHash: hashDashboardToken(abandoned.cookie!) };
      clock.now = new Date(clock.now.getTime() + 31 * 60_000);
      expect(await platform.db.dashboardSession.count({ where: row })).toBe(1);
      expect((await new BrowserSession(() => other.baseUrl).post('/dashboard/api/session/sign-in', { email: 'purge@example.test', password: PASSWORD })).status).toBe(200);
      expect(await platform.db.dashboardSession.count({ where: row })).toBe(0);
    } finally {
      await other.server.close();
    }
  });
});

describe('me names the account’s channels', () => {
  it('lists every channel of the account with its name, oldest first, and none of another account', async () => {
    const added = await createChannel(platform.db, platform.accountId, 'Mobile app <b>');
    const other = await createAccount(platform.db, 'Another merchant');
    await createChannel(platform.db, other.id, 'Not ours');
    const b = await signedInUser(platform, 'channels@example.test', 'SUPPORT');
    const me = await b.post('/dashboard/api/session/me', {}, { csrf: false });
    expect(me.status).toBe(200);
    const [one, two, three] = platform.channelIds;
    expect(me.body.account).toEqual({
      id: platform.accountId,
      name: 'Test account',
      channels: [
        { id: one, name: 'one' },
        { id: two, name: 'two' },
        { id: three, name: 'three' },
        { id: added.id, name: 'Mobile app <b>' },
      ],
    });
  });
});
