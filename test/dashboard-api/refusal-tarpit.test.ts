import { Agent, request as httpRequest } from 'node:http';
import { Secret, TOTP } from 'otpauth';
import { usePlatform } from '../support/platform';
import { PASSWORD, serverWithClock, signedInUser } from './browser-session';

/**
 * docs/dashboard.md, "Security", and docs/rate-limits.md: a public route's refusal (a 429, a wrong
 * password, a bogus invitation or reset token) is held, not answered at once; a success never is.
 */
const platform = usePlatform();

interface RawAnswer {
  status: number;
  connection?: string;
  body: any;
  tookMs: number;
}

/** One request on a kept-alive connection of its own, with the raw headers (fetch hides `connection`). */
function post(baseUrl: string, path: string, body: string, address: string): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const sent = httpRequest(
      `${baseUrl}${path}`,
      { method: 'POST', agent: new Agent({ keepAlive: true }), headers: { 'content-type': 'application/json', 'x-forwarded-for': address } },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () =>
          resolve({ status: response.statusCode!, connection: response.headers.connection, body: text ? JSON.parse(text) : undefined, tookMs: performance.now() - started }),
        );
      },
    );
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('the refusal tarpit of the public dashboard routes', () => {
  const clock = { now: new Date() };
  let server: Awaited<ReturnType<typeof serverWithClock>>;
  const settings = {
    DASHBOARD_PUBLIC_REQUESTS_PER_MINUTE: '1',
    DASHBOARD_PUBLIC_REFUSAL_HOLD_MS: '600',
    DASHBOARD_PUBLIC_REFUSALS_HELD_PER_ADDRESS: '1',
  };
  beforeAll(async () => {
    Object.assign(process.env, settings);
    server = await serverWithClock(platform, clock, { trustProxy: true });
  });
  afterAll(async () => {
    for (const name of Object.keys(settings)) delete process.env[name];
    await server.server.close();
  });
  const invitation = (address: string, body = JSON.stringify({ token: 'bogus' })) => post(server.baseUrl, '/dashboard/api/session/invitation', body, address);

  it('holds the 429 of an address over its limit DASHBOARD_PUBLIC_REFUSAL_HOLD_MS after it arrived', async () => {
    expect((await invitation('198.51.100.120')).status).toBe(422);
    const refused = await invitation('198.51.100.120');
    expect(refused).toMatchObject({ status: 429, body: { code: 'RATE_LIMIT', context: { next_try_at: expect.stringMatching(/Z$/) } } });
    expect(refused.tookMs).toBeGreaterThanOrEqual(590);
    expect(refused.connection).not.toBe('close');
  });

  it('answers at once and closes the connection past the bound of held refusals per address', async () => {
    expect((await invitation('198.51.100.121')).status).toBe(422);
    const [first, second] = await Promise.all([invitation('198.51.100.121'), invitation('198.51.100.121')]);
    const [held, excess] = first!.tookMs > second!.tookMs ? [first!, second!] : [second!, first!];
    expect(held).toMatchObject({ status: 429 });
    expect(held.tookMs).toBeGreaterThanOrEqual(590);
    expect(excess).toMatchObject({ status: 429, connection: 'close', body: { code: 'RATE_LIMIT' } });
    expect(excess.tookMs).toBeLessThan(400);
  });

  it('refuses an address over its limit before reading its body', async () => {
    expect((await invitation('198.51.100.122')).status).toBe(422);
    expect(await invitation('198.51.100.122', '{"token": not json')).toMatchObject({ status: 429, body: { code: 'RATE_LIMIT' } });
  });
});

describe('the failed attempts of the public dashboard routes', () => {
  const clock = { now: new Date() };
  let server: Awaited<ReturnType<typeof serverWithClock>>;
  const settings = {
    DASHBOARD_PUBLIC_REFUSAL_HOLD_MS: '1000',
    DASHBOARD_PUBLIC_REFUSALS_HELD_PER_ADDRESS: '1',
    DASHBOARD_PUBLIC_REFUSALS_HELD_AT_ONCE: '2',
    DASHBOARD_UNKNOWN_CLIENT_SIGN_INS_PER_SECOND: '1000',
  };
  beforeAll(async () => {
    Object.assign(process.env, settings);
    server = await serverWithClock(platform, clock, { trustProxy: true });
    await signedInUser(platform, 'held-failures@example.test', 'SUPPORT');
  });
  afterAll(async () => {
    for (const name of Object.keys(settings)) delete process.env[name];
    await server.server.close();
  });
  const signIn = (address: string, password: string) =>
    post(server.baseUrl, '/dashboard/api/session/sign-in', JSON.stringify({ email: 'held-failures@example.test', password }), address);
  const acceptBogus = (address: string) =>
    post(server.baseUrl, '/dashboard/api/session/accept-invitation', JSON.stringify({ token: 'no such invitation', password: PASSWORD }), address);

  it('answers a wrong password no sooner than DASHBOARD_PUBLIC_REFUSAL_HOLD_MS after it arrived', async () => {
    const wrong = await signIn('198.51.100.140', 'not the password');
    expect(wrong).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
    expect(wrong.tookMs).toBeGreaterThanOrEqual(990);
    expect(wrong.connection).not.toBe('close');
  });

  it('answers a bogus invitation token no sooner than the hold', async () => {
    const bogus = await acceptBogus('198.51.100.141');
    expect(bogus).toMatchObject({ status: 422, body: { code: 'INVITATION_INVALID' } });
    expect(bogus.tookMs).toBeGreaterThanOrEqual(990);
  });

  it('answers a right password at once', async () => {
    const right = await signIn('198.51.100.142', PASSWORD);
    expect(right.status).toBe(200);
    expect(right.tookMs).toBeLessThan(700);
  });

  it('answers TOTP_REQUIRED at once: the password was right', async () => {
    const user = await signedInUser(platform, 'held-totp@example.test', 'SUPPORT');
    const enrolled = await user.post('/dashboard/api/totp/enroll', { password: PASSWORD });
    const totp = new TOTP({ secret: Secret.fromBase32(enrolled.body.secret), digits: 6, period: 30, algorithm: 'SHA1' });
    expect((await user.post('/dashboard/api/totp/confirm', { code: totp.generate() })).status).toBe(200);
    const asked = await post(server.baseUrl, '/dashboard/api/session/sign-in', JSON.stringify({ email: 'held-totp@example.test', password: PASSWORD }), '198.51.100.147');
    expect(asked).toMatchObject({ status: 401, body: { code: 'TOTP_REQUIRED' } });
    expect(asked.tookMs).toBeLessThan(700);
  });

  it('answers at once and closes the connection past the bound of held failures per address', async () => {
    const [first, second] = await Promise.all([acceptBogus('198.51.100.143'), acceptBogus('198.51.100.143')]);
    const [held, excess] = first!.tookMs > second!.tookMs ? [first!, second!] : [second!, first!];
    expect(held).toMatchObject({ status: 422 });
    expect(held.tookMs).toBeGreaterThanOrEqual(990);
    expect(held.connection).not.toBe('close');
    expect(excess).toMatchObject({ status: 422, connection: 'close', body: { code: 'INVITATION_INVALID' } });
    expect(excess.tookMs).toBeLessThan(700);
  });

  it('answers at once and closes the connection past the bound of held failures in the process', async () => {
    const answers = await Promise.all(['198.51.100.144', '198.51.100.145', '198.51.100.146'].map(acceptBogus));
    const sorted = [...answers].sort((a, b) => a.tookMs - b.tookMs);
    expect(sorted[0]).toMatchObject({ status: 422, connection: 'close' });
    expect(sorted[0]!.tookMs).toBeLessThan(700);
    for (const held of sorted.slice(1)) {
      expect(held.tookMs).toBeGreaterThanOrEqual(990);
      expect(held.connection).not.toBe('close');
    }
  });
});
