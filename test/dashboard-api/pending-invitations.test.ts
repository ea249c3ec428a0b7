import { usePlatform } from '../support/platform';
import { BrowserSession, PASSWORD, signedInUser, tokenOf } from './browser-session';

/** docs/dashboard.md, "Sessions" and "Team": pending invitations are listed, revoked, and die with their inviter's admin rights. */
const platform = usePlatform();
// Each refused attempt held a second would only slow the file (refusal-tarpit.test.ts tests the hold).
process.env.DASHBOARD_PUBLIC_REFUSAL_HOLD_MS = '1';
const HOUR = 3600_000;

let admin: BrowserSession;

beforeAll(async () => {
  admin = await signedInUser(platform, 'inviter@example.test', 'MERCHANT_ADMIN');
});

const invite = (by: BrowserSession, email: string, role = 'SUPPORT') => by.post('/dashboard/api/users/invite', { email, role });
const accept = (url: string) => new BrowserSession(() => platform.baseUrl).post('/dashboard/api/session/accept-invitation', { token: tokenOf(url), password: PASSWORD });
const pendingEmails = async (by: BrowserSession) => {
  const listed = await by.post('/dashboard/api/invitations/list');
  expect(listed.status).toBe(200);
  return listed.body.data.map((i: { email: string }) => i.email);
};

describe('invitations/list and invitations/revoke', () => {
  it('lists the pending invitations newest first; a revoked link no longer works', async () => {
    const first = await invite(admin, 'listed-one@example.test');
    const second = await invite(admin, 'listed-two@example.test', 'DEVELOPER');
    const used = await invite(admin, 'listed-used@example.test');
    expect((await accept(used.body.invitation_url)).status).toBe(200);

    const listed = await admin.post('/dashboard/api/invitations/list');
    expect(listed.status).toBe(200);
    const adminId = (await admin.post('/dashboard/api/session/me')).body.user.id;
    expect(listed.body.data.slice(0, 2)).toEqual([
      { id: expect.stringMatching(/^uinv_/), email: 'listed-two@example.test', role: 'DEVELOPER', invited_by: adminId, created_at: expect.stringMatching(/Z$/), expires_at: second.body.expires_at },
      { id: expect.stringMatching(/^uinv_/), email: 'listed-one@example.test', role: 'SUPPORT', invited_by: adminId, created_at: expect.stringMatching(/Z$/), expires_at: first.body.expires_at },
    ]);
    expect(listed.body.data.map((i: { email: string }) => i.email)).not.toContain('listed-used@example.test');

    const revoked = await admin.post('/dashboard/api/invitations/revoke', { invitation_id: listed.body.data[0].id });
    expect(revoked.status).toBe(204);
    expect(await pendingEmails(admin)).not.toContain('listed-two@example.test');
    expect(await accept(second.body.invitation_url)).toMatchObject({ status: 422, body: { code: 'INVITATION_INVALID', context: { reason: 'REVOKED' } } });
    expect(await admin.post('/dashboard/api/invitations/revoke', { invitation_id: listed.body.data[0].id })).toMatchObject({
      status: 422,
      body: { code: 'INVITATION_INVALID', context: { reason: 'REVOKED' } },
    });
    expect((await admin.post('/dashboard/api/invitations/revoke', { invitation_id: 'uinv_00000000000000000000000000' })).status).toBe(404);
    expect((await accept(first.body.invitation_url)).status).toBe(200);
  });

  it('is for admins only', async () => {
    const developer = await signedInUser(platform, 'not-an-admin@example.test', 'DEVELOPER');
    expect((await developer.post('/dashboard/api/invitations/list')).status).toBe(403);
    expect((await developer.post('/dashboard/api/invitations/revoke', { invitation_id: 'uinv_00000000000000000000000000' })).status).toBe(403);
  });
});

describe('an inviter who stops being an admin', () => {
  it('takes their pending invitations along when removed or demoted; other admins’ stay', async () => {
    const removed = await signedInUser(platform, 'removed-inviter@example.test', 'MERCHANT_ADMIN');
    const demoted = await signedInUser(platform, 'demoted-inviter@example.test', 'MERCHANT_ADMIN');
    const byRemoved = await invite(removed, 'from-removed@example.test');
    const byDemoted = await invite(demoted, 'from-demoted@example.test');
    const byAdmin = await invite(admin, 'from-staying@example.test');

    await admin.post('/dashboard/api/users/remove', { user_id: (await removed.post('/dashboard/api/session/me')).body.user.id });
    const demotedId = (await demoted.post('/dashboard/api/session/me')).body.user.id;
    expect((await admin.post('/dashboard/api/users/update-role', { user_id: demotedId, role: 'DEVELOPER' })).status).toBe(200);

    expect(await pendingEmails(admin)).not.toEqual(expect.arrayContaining(['from-removed@example.test']));
    expect(await pendingEmails(admin)).not.toEqual(expect.arrayContaining(['from-demoted@example.test']));
    expect(await pendingEmails(admin)).toContain('from-staying@example.test');
    expect(await accept(byRemoved.body.invitation_url)).toMatchObject({ status: 422, body: { context: { reason: 'REVOKED' } } });
    expect(await accept(byDemoted.body.invitation_url)).toMatchObject({ status: 422, body: { context: { reason: 'REVOKED' } } });
    expect((await accept(byAdmin.body.invitation_url)).status).toBe(200);
  });
});

describe('expiry by role', () => {
  it('a MERCHANT_ADMIN invitation lasts 24 hours, any other 72', async () => {
    const forAdmin = await invite(admin, 'future-admin@example.test', 'MERCHANT_ADMIN');
    const forSupport = await invite(admin, 'future-support@example.test', 'SUPPORT');
    const hoursLeft = (answer: { body: { expires_at: string } }) => (Date.parse(answer.body.expires_at) - Date.now()) / HOUR;
    expect(hoursLeft(forAdmin)).toBeGreaterThan(23.9);
    expect(hoursLeft(forAdmin)).toBeLessThanOrEqual(24);
    expect(hoursLeft(forSupport)).toBeGreaterThan(71.9);
  });
});
