import { Secret, TOTP } from 'otpauth';
import { usePlatform } from '../support/platform';
import { BrowserSession, PASSWORD, serverWithClock, signedInUser } from './browser-session';

/** docs/dashboard.md, "Security": the sign-in throttle and the TOTP second factor. */
const platform = usePlatform();

describe('sign-in throttle', () => {
  const clock = { now: new Date() };
  let server: Awaited<ReturnType<typeof serverWithClock>>;
  beforeAll(async () => {
    server = await serverWithClock(platform, clock, { trustProxy: true });
  });
  afterAll(() => server.server.close());

  const from = (address: string) => {
    const browser = new BrowserSession(() => server.baseUrl);
    return (email: string, password: string) =>
      browser.post('/dashboard/api/session/sign-in', { email, password }, { headers: { 'x-forwarded-for': address } });
  };

  it('refuses the sixth attempt on one e-mail within 15 minutes, even with the right password, from any address; a success resets the count', async () => {
    await signedInUser(platform, 'guessed@example.test', 'SUPPORT');
    const attacker = from('198.51.100.1');
    for (let i = 0; i < 5; i++) expect((await attacker('guessed@example.test', `guess ${i}`)).status).toBe(401);
    const throttled = await attacker('guessed@example.test', PASSWORD);
    expect(throttled).toMatchObject({ status: 429, body: { code: 'RATE_LIMIT', context: { next_try_at: expect.stringMatching(/Z$/) } } });
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await from('198.51.100.2')('guessed@example.test', PASSWORD)).status).toBe(429);
    expect((await from('198.51.100.2')('someone-else@example.test', 'x')).status).toBe(401);

    clock.now = new Date(clock.now.getTime() + 15 * 60_000 + 1000);
    expect((await from('198.51.100.3')('guessed@example.test', PASSWORD)).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await from('198.51.100.3')('guessed@example.test', `again ${i}`)).status).toBe(401);
    expect((await from('198.51.100.3')('guessed@example.test', PASSWORD)).status).toBe(429);
  });

  it('refuses an address that tries too many e-mails, not the others', async () => {
    process.env.DASHBOARD_SIGN_IN_ATTEMPTS_PER_ADDRESS = '4';
    try {
      const sprayer = from('203.0.113.7');
      for (let i = 0; i < 4; i++) expect((await sprayer(`spray${i}@example.test`, 'password1')).status).toBe(401);
      expect((await sprayer('spray-last@example.test', 'password1')).status).toBe(429);
      await signedInUser(platform, 'bystander@example.test', 'SUPPORT');
      expect((await from('203.0.113.8')('bystander@example.test', PASSWORD)).status).toBe(200);
    } finally {
      delete process.env.DASHBOARD_SIGN_IN_ATTEMPTS_PER_ADDRESS;
    }
  });

  it('believes X-Forwarded-For only when TRUST_PROXY says so', async () => {
    process.env.DASHBOARD_SIGN_IN_ATTEMPTS_PER_ADDRESS = '2';
    try {
      const direct = new BrowserSession(() => platform.baseUrl);
      const attempt = (i: number) =>
        direct.post('/dashboard/api/session/sign-in', { email: `direct${i}@example.test`, password: 'password1' }, { headers: { 'x-forwarded-for': `192.0.2.${i}` } });
      expect((await attempt(1)).status).toBe(401);
      expect((await attempt(2)).status).toBe(401);
      expect((await attempt(3)).status).toBe(429);
    } finally {
      delete process.env.DASHBOARD_SIGN_IN_ATTEMPTS_PER_ADDRESS;
      await platform.db.dashboardSignInThrottle.deleteMany({ where: { key: 'address:127.0.0.1' } });
    }
  });
});

describe('TOTP second factor', () => {
  it('enrols, confirms, then requires a fresh code at sign-in; a code works once; disable needs a code', async () => {
    const clock = { now: new Date() };
    const other = await serverWithClock(platform, clock);
    try {
      await signedInUser(platform, 'totp@example.test', 'MERCHANT_ADMIN');
      const user = new BrowserSession(() => other.baseUrl);
      const signIn = (totp_code?: string) =>
        user.post('/dashboard/api/session/sign-in', { email: 'totp@example.test', password: PASSWORD, ...(totp_code ? { totp_code } : {}) });
      expect((await signIn()).status).toBe(200);

      const enrolled = await user.post('/dashboard/api/totp/enroll', { password: PASSWORD });
      expect(enrolled.status).toBe(200);
      expect(enrolled.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/.*totp%40example\.test\?.*secret=/);
      const totp = new TOTP({ secret: Secret.fromBase32(enrolled.body.secret), digits: 6, period: 30, algorithm: 'SHA1' });
      const codeAt = (offsetSeconds: number) => totp.generate({ timestamp: clock.now.getTime() + offsetSeconds * 1000 });
      const stored = await platform.db.dashboardUser.findFirstOrThrow({ where: { email: 'totp@example.test' } });
      expect(Buffer.from(stored.totpSecretSealed!).toString('latin1')).not.toContain(enrolled.body.secret);

      // Not in force until confirmed.
      expect((await signIn()).status).toBe(200);
      expect((await user.post('/dashboard/api/totp/confirm', { code: '000000' === codeAt(0) ? '111111' : '000000' })).status).toBe(400);
      expect((await user.post('/dashboard/api/totp/confirm', { code: codeAt(0) })).status).toBe(200);
      expect((await user.post('/dashboard/api/session/me')).body.user.totp_enabled).toBe(true);

      clock.now = new Date(clock.now.getTime() + 60_000);
      expect(await signIn()).toMatchObject({ status: 401, body: { code: 'TOTP_REQUIRED' } });
      expect(await signIn(codeAt(-60))).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
      const fresh = codeAt(0);
      expect((await signIn(fresh)).status).toBe(200);
      expect(await signIn(fresh)).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
      const wrongPassword = await user.post('/dashboard/api/session/sign-in', { email: 'totp@example.test', password: 'wrong password', totp_code: codeAt(30) });
      expect(wrongPassword).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });

      clock.now = new Date(clock.now.getTime() + 60_000);
      expect((await signIn(codeAt(0))).status).toBe(200);
      expect((await user.post('/dashboard/api/totp/disable', { code: codeAt(0), password: PASSWORD })).status).toBe(400);
      clock.now = new Date(clock.now.getTime() + 30_000);
      expect((await user.post('/dashboard/api/totp/disable', { code: codeAt(0), password: PASSWORD })).status).toBe(200);
      expect((await signIn()).status).toBe(200);
    } finally {
      await platform.db.dashboardSignInThrottle.deleteMany({});
      await other.server.close();
    }
  });
});
