import { usePlatform } from '../support/platform';
import { BrowserSession, PASSWORD, serverWithClock, signedInUser } from './browser-session';

/** docs/dashboard.md, "Security": argon2 runs for clients nobody signed in from are budgeted per process; known clients are not. */
const platform = usePlatform();

describe('the budget of sign-ins from unknown clients', () => {
  const clock = { now: new Date() };
  let server: Awaited<ReturnType<typeof serverWithClock>>;
  beforeAll(async () => {
    server = await serverWithClock(platform, clock, { trustProxy: true });
  });
  afterAll(async () => {
    delete process.env.DASHBOARD_UNKNOWN_CLIENT_SIGN_INS_PER_SECOND;
    await server.server.close();
  });

  const signIn = (address: string, email: string, password: string, device?: string) =>
    new BrowserSession(() => server.baseUrl).post(
      '/dashboard/api/session/sign-in',
      { email, password },
      { headers: { 'x-forwarded-for': address, ...(device ? { cookie: `bp_device=${device}` } : {}) } },
    );

  it('refuses unknown clients past the budget, 429 with next_try_at and no sign-in count, while a known device signs in', async () => {
    await signedInUser(platform, 'budgeted@example.test', 'SUPPORT');
    const known = await signIn('198.51.100.130', 'budgeted@example.test', PASSWORD);
    expect(known.status).toBe(200);
    const device = known.headers.getSetCookie().find((cookie) => cookie.startsWith('bp_device='))!.slice('bp_device='.length).split(';')[0];

    process.env.DASHBOARD_UNKNOWN_CLIENT_SIGN_INS_PER_SECOND = '1';
    const flood = await Promise.all(Array.from({ length: 6 }, (_, i) => signIn(`203.0.113.${130 + i}`, `budget-${i}@example.test`, 'not the password')));
    const refused = flood.filter((answer) => answer.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(4);
    expect(refused[0]).toMatchObject({ body: { code: 'RATE_LIMIT', context: { next_try_at: expect.stringMatching(/Z$/) } } });
    const counted = await platform.db.dashboardSignInThrottle.count({ where: { key: { startsWith: 'email:budget-' } } });
    expect(counted).toBe(flood.length - refused.length);

    expect((await signIn('192.0.2.130', 'budgeted@example.test', PASSWORD, device)).status).toBe(200);
  });
});
