import { Secret, TOTP } from 'otpauth';
import { createAccount } from '../../scripts/operator/accounts';
import { createInvitation } from '../../services/dashboard/invitations';
import { usePlatform } from '../support/platform';
import { type Answer, BrowserSession, invitationToken, PASSWORD, serverWithClock, signedInUser, tokenOf } from './browser-session';

/** docs/dashboard.md, "Security": the sign-in throttle and the TOTP second factor. */
const platform = usePlatform();
// The clock stands still here: the budget of unknown clients' sign-ins would never refill
// (unknown-client-sign-ins.test.ts tests it), and each 429 held a second would only slow the file
// (refusal-tarpit.test.ts tests that).
process.env.DASHBOARD_UNKNOWN_CLIENT_SIGN_INS_PER_SECOND = '1000';
process.env.DASHBOARD_PUBLIC_REFUSAL_HOLD_MS = '1';

/** The known-device token a successful sign-in hands the browser. */
function deviceCookieOf(answer: Answer): string | undefined {
  const set = answer.headers.getSetCookie().find((cookie) => cookie.startsWith('bp_device='));
  return set?.slice('bp_device='.length).split(';')[0];
}

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

  it('lets a device or an address that signed in before in with the right password while others have the e-mail locked, and keeps refusing unknown clients', async () => {
    await signedInUser(platform, 'admin-like@example.test', 'MERCHANT_ADMIN');
    const signIn = (address: string, password: string, device?: string) =>
      new BrowserSession(() => server.baseUrl).post(
        '/dashboard/api/session/sign-in',
        { email: 'admin-like@example.test', password },
        { headers: { 'x-forwarded-for': address, ...(device ? { cookie: `bp_device=${device}` } : {}) } },
      );
    const fromLaptop = await signIn('198.51.100.20', PASSWORD);
    expect(fromLaptop.status).toBe(200);
    const device = deviceCookieOf(fromLaptop);
    expect(device).toBeDefined();
    expect((await signIn('198.51.100.21', PASSWORD)).status).toBe(200);

    // Anyone, from many addresses, forever: the e-mail is locked for clients it has never seen.
    for (let i = 0; i < 12; i++) expect([401, 429]).toContain((await signIn(`203.0.113.${100 + i}`, `guess ${i}`)).status);
    expect((await signIn('203.0.113.200', PASSWORD)).status).toBe(429);
    expect((await signIn('198.51.100.22', PASSWORD)).status).toBe(429);

    // The laptop's cookie, even from a new address; the office's address, even without a cookie.
    expect((await signIn('192.0.2.44', PASSWORD, device)).status).toBe(200);
    expect((await signIn('198.51.100.21', PASSWORD)).status).toBe(200);
    // A made-up or another user's cookie is no known device.
    expect((await signIn('198.51.100.23', PASSWORD, 'not-a-device-token')).status).toBe(429);
  });

  it('knows the device that accepted the invitation', async () => {
    const accepted = await new BrowserSession(() => server.baseUrl).post(
      '/dashboard/api/session/accept-invitation',
      { token: await invitationToken(platform, 'invited@example.test', 'MERCHANT_ADMIN'), password: PASSWORD },
      { headers: { 'x-forwarded-for': '198.51.100.40' } },
    );
    expect(accepted.status).toBe(200);
    const device = deviceCookieOf(accepted);
    for (let i = 0; i < 6; i++) await from(`203.0.113.${150 + i}`)('invited@example.test', `guess ${i}`);
    expect((await from('203.0.113.160')('invited@example.test', PASSWORD)).status).toBe(429);
    const signIn = await new BrowserSession(() => server.baseUrl).post(
      '/dashboard/api/session/sign-in',
      { email: 'invited@example.test', password: PASSWORD },
      { headers: { 'x-forwarded-for': '192.0.2.45', cookie: `bp_device=${device}` } },
    );
    expect(signIn.status).toBe(200);
  });

  it('locks a known device on its own failures only', async () => {
    await signedInUser(platform, 'typo@example.test', 'SUPPORT');
    const signIn = (password: string, device?: string) =>
      new BrowserSession(() => server.baseUrl).post(
        '/dashboard/api/session/sign-in',
        { email: 'typo@example.test', password },
        { headers: { 'x-forwarded-for': '198.51.100.30', ...(device ? { cookie: `bp_device=${device}` } : {}) } },
      );
    const device = deviceCookieOf(await signIn(PASSWORD));
    for (let i = 0; i < 5; i++) expect((await signIn(`typo ${i}`, device)).status).toBe(401);
    expect((await signIn(PASSWORD, device)).status).toBe(429);
    expect((await from('198.51.100.31')('typo@example.test', PASSWORD)).status).toBe(200);
  });

  it("guesses another account's user of the same e-mail as an unknown client, whose counts its own successes never empty", async () => {
    // E-mails are unique per account: anyone who can invite themselves into an account of their
    // own under a victim's e-mail signs in from a client the platform knows for that e-mail.
    await signedInUser(platform, 'victim@example.test', 'MERCHANT_ADMIN');
    const theirs = await createAccount(platform.db, 'Their own merchant');
    const invitation = await createInvitation(platform.db, { accountId: theirs.id, email: 'victim@example.test', role: 'MERCHANT_ADMIN', invitedBy: null }, clock.now);
    const ownPassword = 'their own password';
    const accepted = await new BrowserSession(() => server.baseUrl).post(
      '/dashboard/api/session/accept-invitation',
      { token: tokenOf(invitation.url), password: ownPassword },
      { headers: { 'x-forwarded-for': '203.0.113.50' } },
    );
    expect(accepted.status).toBe(200);
    const attempt = from('203.0.113.50');
    const answers: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 3; i++) answers.push((await attempt('victim@example.test', `guess ${round}.${i}`)).status);
      expect((await attempt('victim@example.test', ownPassword)).status).toBe(200);
    }
    expect(answers).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429]);
    expect((await attempt('victim@example.test', PASSWORD)).status).toBe(429);
  });

  it('limits IPv6 clients per /64, not per address', async () => {
    process.env.DASHBOARD_SIGN_IN_ATTEMPTS_PER_ADDRESS = '3';
    try {
      for (let i = 1; i <= 3; i++) expect((await from(`2001:db8:1:2::${i}`)(`v6-${i}@example.test`, 'password1')).status).toBe(401);
      expect((await from('2001:db8:1:2:ffff:ffff:ffff:fffe')('v6-4@example.test', 'password1')).status).toBe(429);
      expect((await from('2001:db8:1:3::1')('v6-5@example.test', 'password1')).status).toBe(401);
    } finally {
      delete process.env.DASHBOARD_SIGN_IN_ATTEMPTS_PER_ADDRESS;
    }
  });

  it('checks the address before counting the e-mail: a refused address adds no rows', async () => {
    process.env.DASHBOARD_SIGN_IN_ATTEMPTS_PER_ADDRESS = '2';
    try {
      const sprayer = from('203.0.113.77');
      for (let i = 0; i < 2; i++) expect((await sprayer(`counted${i}@example.test`, 'password1')).status).toBe(401);
      for (let i = 0; i < 3; i++) expect((await sprayer(`uncounted${i}@example.test`, 'password1')).status).toBe(429);
      const keys = (await platform.db.dashboardSignInThrottle.findMany({ where: { key: { contains: 'counted' } } })).map((row) => row.key);
      expect(keys.sort()).toEqual(['email:counted0@example.test', 'email:counted1@example.test']);
    } finally {
      delete process.env.DASHBOARD_SIGN_IN_ATTEMPTS_PER_ADDRESS;
    }
  });

  it('throttles every public route per address before any work: 429 with Retry-After, other addresses unaffected', async () => {
    process.env.DASHBOARD_PUBLIC_REQUESTS_PER_MINUTE = '3';
    try {
      const post = (address: string, route: string, body: unknown) =>
        new BrowserSession(() => server.baseUrl).post(`/dashboard/api/session/${route}`, body, { headers: { 'x-forwarded-for': address } });
      for (let i = 0; i < 3; i++) expect((await post('198.51.100.90', 'invitation', { token: `bogus-${i}` })).status).toBe(422);
      const refused = await post('198.51.100.90', 'accept-invitation', { token: 'bogus', password: 'long enough password' });
      expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMIT', context: { next_try_at: expect.stringMatching(/Z$/) } } });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await post('198.51.100.90', 'sign-in', { email: 'x@example.test', password: 'password1' })).status).toBe(429);
      expect((await post('198.51.100.91', 'invitation', { token: 'bogus' })).status).toBe(422);
      clock.now = new Date(clock.now.getTime() + 60_000);
      expect((await post('198.51.100.90', 'invitation', { token: 'bogus' })).status).toBe(422);
    } finally {
      delete process.env.DASHBOARD_PUBLIC_REQUESTS_PER_MINUTE;
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
