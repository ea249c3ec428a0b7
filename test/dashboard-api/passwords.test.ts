import { Secret, TOTP } from 'otpauth';
import { hashDashboardToken } from '../../domain/dashboard-tokens';
import { usePlatform } from '../support/platform';
import { BrowserSession, PASSWORD, serverWithClock, signedInUser, tokenOf } from './browser-session';

/** docs/dashboard.md, "Passwords": change your own, an admin's reset link, TOTP changes behind the password. */
const platform = usePlatform();
// Each refused attempt held a second would only slow the file (refusal-tarpit.test.ts tests the hold).
process.env.DASHBOARD_PUBLIC_REFUSAL_HOLD_MS = '1';
const NEW_PASSWORD = 'a brand new passphrase';
const HOUR = 3600_000;

const browser = () => new BrowserSession(() => platform.baseUrl);
const signIn = (email: string, password: string) => browser().post('/dashboard/api/session/sign-in', { email, password });
const userIdOf = async (b: BrowserSession) => (await b.post('/dashboard/api/session/me')).body.user.id as string;

afterEach(async () => {
  await platform.db.dashboardSignInThrottle.deleteMany({});
});

describe('password/change', () => {
  it('any signed-in user changes their own password with the current one; their other sessions end', async () => {
    const support = await signedInUser(platform, 'changer@example.test', 'SUPPORT');
    const elsewhere = await signIn('changer@example.test', PASSWORD);
    expect(elsewhere.status).toBe(200);
    const elsewhereToken = elsewhere.headers.get('set-cookie')!.split(';')[0]!.split('=')[1]!;

    const wrong = await support.post('/dashboard/api/password/change', { current_password: 'not my password', new_password: NEW_PASSWORD });
    expect(wrong).toMatchObject({ status: 400, body: { code: 'VALIDATION', context: { constraints: { current_password: { type: 'INVALID' } } } } });
    const short = await support.post('/dashboard/api/password/change', { current_password: PASSWORD, new_password: 'short' });
    expect(short).toMatchObject({ status: 400, body: { code: 'VALIDATION', context: { constraints: { new_password: { type: 'MIN' } } } } });
    expect((await support.post('/dashboard/api/password/change', { current_password: PASSWORD, new_password: NEW_PASSWORD }, { csrf: false })).status).toBe(403);

    expect((await support.post('/dashboard/api/password/change', { current_password: PASSWORD, new_password: NEW_PASSWORD })).status).toBe(204);
    expect((await support.post('/dashboard/api/session/me')).status).toBe(200);
    expect(await platform.db.dashboardSession.count({ where: { tokenHash: hashDashboardToken(elsewhereToken) } })).toBe(0);
    expect((await signIn('changer@example.test', PASSWORD)).status).toBe(401);
    expect((await signIn('changer@example.test', NEW_PASSWORD)).status).toBe(200);
  });
});

describe('guessing the current password through a session', () => {
  it('is counted per user like sign-in: past 5 wrong guesses in the window even the right one is 429', async () => {
    const user = await signedInUser(platform, 'guessed@example.test', 'SUPPORT');
    for (let i = 0; i < 5; i++) {
      const wrong = await user.post('/dashboard/api/password/change', { current_password: `guess number ${i}`, new_password: NEW_PASSWORD });
      expect(wrong.status).toBe(400);
    }
    expect(await user.post('/dashboard/api/totp/enroll', { password: PASSWORD })).toMatchObject({ status: 429, body: { code: 'RATE_LIMIT' } });
    expect(await user.post('/dashboard/api/password/change', { current_password: PASSWORD, new_password: NEW_PASSWORD })).toMatchObject({
      status: 429,
      body: { code: 'RATE_LIMIT', context: { next_try_at: expect.stringMatching(/Z$/) } },
    });
    expect((await signIn('guessed@example.test', NEW_PASSWORD)).status).toBe(401);
  });
});

describe('users/send-password-reset', () => {
  it('an admin makes a single-use link for a member: it sets a new password and ends the member’s sessions', async () => {
    const admin = await signedInUser(platform, 'reset-admin@example.test', 'MERCHANT_ADMIN');
    const member = await signedInUser(platform, 'forgetful@example.test', 'DEVELOPER');
    const memberId = await userIdOf(member);

    const sent = await admin.post('/dashboard/api/users/send-password-reset', { user_id: memberId });
    expect(sent).toMatchObject({
      status: 200,
      body: { reset_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/dashboard\/reset-password\?token=[\w-]{43}$/), expires_at: expect.stringMatching(/Z$/) },
    });
    const hoursLeft = (Date.parse(sent.body.expires_at) - Date.now()) / HOUR;
    expect(hoursLeft).toBeGreaterThan(0.9);
    expect(hoursLeft).toBeLessThanOrEqual(1);
    const token = tokenOf(sent.body.reset_url);

    expect(await browser().post('/dashboard/api/session/password-reset', { token })).toMatchObject({
      status: 200,
      body: { email: 'forgetful@example.test', account_name: 'Test account' },
    });
    expect((await browser().post('/dashboard/api/session/reset-password', { token, password: 'short' })).status).toBe(400);
    const reset = await browser().post('/dashboard/api/session/reset-password', { token, password: NEW_PASSWORD });
    expect(reset.status).toBe(204);
    expect(reset.headers.get('set-cookie')).toBeNull();
    expect((await member.post('/dashboard/api/session/me')).status).toBe(401);
    expect((await signIn('forgetful@example.test', NEW_PASSWORD)).status).toBe(200);

    expect(await browser().post('/dashboard/api/session/reset-password', { token, password: 'yet another password' })).toMatchObject({
      status: 422,
      body: { code: 'RESET_LINK_INVALID', context: { reason: 'USED' } },
    });
    expect(await browser().post('/dashboard/api/session/reset-password', { token: 'no-such-token', password: NEW_PASSWORD })).toMatchObject({
      status: 422,
      body: { code: 'RESET_LINK_INVALID', context: { reason: 'UNKNOWN' } },
    });
  });

  it('expires after an hour; a newer link replaces an unused older one', async () => {
    const clock = { now: new Date() };
    const other = await serverWithClock(platform, clock);
    try {
      const admin = await signedInUser(platform, 'reset-admin-2@example.test', 'MERCHANT_ADMIN');
      const memberId = await userIdOf(await signedInUser(platform, 'late-reset@example.test', 'SUPPORT'));
      const first = await admin.post('/dashboard/api/users/send-password-reset', { user_id: memberId });
      const second = await admin.post('/dashboard/api/users/send-password-reset', { user_id: memberId });
      const b = new BrowserSession(() => other.baseUrl);
      expect(await b.post('/dashboard/api/session/reset-password', { token: tokenOf(first.body.reset_url), password: NEW_PASSWORD })).toMatchObject({
        status: 422,
        body: { code: 'RESET_LINK_INVALID', context: { reason: 'UNKNOWN' } },
      });
      clock.now = new Date(clock.now.getTime() + HOUR + 1000);
      expect(await b.post('/dashboard/api/session/reset-password', { token: tokenOf(second.body.reset_url), password: NEW_PASSWORD })).toMatchObject({
        status: 422,
        body: { code: 'RESET_LINK_INVALID', context: { reason: 'EXPIRED' } },
      });
    } finally {
      await other.server.close();
    }
  });

  it('is for admins only, and only for users of their account', async () => {
    const developer = await signedInUser(platform, 'dev-no-reset@example.test', 'DEVELOPER');
    expect((await developer.post('/dashboard/api/users/send-password-reset', { user_id: await userIdOf(developer) })).status).toBe(403);
    const admin = await signedInUser(platform, 'reset-admin-3@example.test', 'MERCHANT_ADMIN');
    expect((await admin.post('/dashboard/api/users/send-password-reset', { user_id: 'usr_00000000000000000000000000' })).status).toBe(404);
  });
});

describe('TOTP changes need the password', () => {
  it('enrol and disable are refused without the right password', async () => {
    const user = await signedInUser(platform, 'totp-password@example.test', 'SUPPORT');
    expect((await user.post('/dashboard/api/totp/enroll', {})).status).toBe(400);
    expect(await user.post('/dashboard/api/totp/enroll', { password: 'not my password' })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION', context: { constraints: { password: { type: 'INVALID' } } } },
    });
    const enrolled = await user.post('/dashboard/api/totp/enroll', { password: PASSWORD });
    expect(enrolled.status).toBe(200);
    const totp = new TOTP({ secret: Secret.fromBase32(enrolled.body.secret), digits: 6, period: 30, algorithm: 'SHA1' });
    expect((await user.post('/dashboard/api/totp/confirm', { code: totp.generate() })).status).toBe(200);

    const code = totp.generate({ timestamp: Date.now() + 30_000 });
    expect(await user.post('/dashboard/api/totp/disable', { code, password: 'not my password' })).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION', context: { constraints: { password: { type: 'INVALID' } } } },
    });
    expect((await user.post('/dashboard/api/session/me')).body.user.totp_enabled).toBe(true);
    expect((await user.post('/dashboard/api/totp/disable', { code, password: PASSWORD })).status).toBe(200);
  });
});
