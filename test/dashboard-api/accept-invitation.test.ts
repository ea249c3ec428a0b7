import { hashDashboardToken } from '../../domain/dashboard-tokens';
import { hashPassword } from '../../services/dashboard/passwords';
import { usePlatform } from '../support/platform';
import { BrowserSession, invitationToken, PASSWORD, signedInUser } from './browser-session';

jest.mock('../../services/dashboard/passwords', () => {
  const actual = jest.requireActual('../../services/dashboard/passwords');
  return { ...actual, hashPassword: jest.fn(actual.hashPassword) };
});

/** docs/dashboard.md, "Sessions": what session/accept-invitation does before and after the password. */
const platform = usePlatform();
// Each refused attempt held a second would only slow the file (refusal-tarpit.test.ts tests the hold).
process.env.DASHBOARD_PUBLIC_REFUSAL_HOLD_MS = '1';
const hashed = hashPassword as jest.MockedFunction<typeof hashPassword>;

const browser = () => new BrowserSession(() => platform.baseUrl);

describe('session/accept-invitation', () => {
  it('refuses an unknown, used or expired link before hashing the password', async () => {
    const used = await invitationToken(platform, 'used-link@example.test', 'SUPPORT');
    expect((await browser().post('/dashboard/api/session/accept-invitation', { token: used, password: PASSWORD })).status).toBe(200);
    const expired = await invitationToken(platform, 'expired-link@example.test', 'SUPPORT', new Date(Date.now() - 100 * 3600_000));
    hashed.mockClear();

    for (const [token, reason] of [['no-such-token', 'UNKNOWN'], [used, 'USED'], [expired, 'EXPIRED']] as const) {
      const refused = await browser().post('/dashboard/api/session/accept-invitation', { token, password: PASSWORD });
      expect(refused).toMatchObject({ status: 422, body: { code: 'INVITATION_INVALID', context: { reason } } });
    }
    expect(hashed).not.toHaveBeenCalled();

    const good = await invitationToken(platform, 'good-link@example.test', 'SUPPORT');
    expect((await browser().post('/dashboard/api/session/accept-invitation', { token: good, password: PASSWORD })).status).toBe(200);
    expect(hashed).toHaveBeenCalledTimes(1);
  });

  it('ends the session the browser presented: a token held before no longer works', async () => {
    const b = await signedInUser(platform, 'held-before@example.test', 'SUPPORT');
    const before = b.cookie!;
    const token = await invitationToken(platform, 'accepted-after@example.test', 'DEVELOPER');
    expect((await b.post('/dashboard/api/session/accept-invitation', { token, password: PASSWORD })).status).toBe(200);
    expect(b.cookie).not.toBe(before);
    expect(await platform.db.dashboardSession.count({ where: { tokenHash: hashDashboardToken(before) } })).toBe(0);
    const stale = browser();
    stale.cookie = before;
    expect((await stale.post('/dashboard/api/session/me')).status).toBe(401);
  });
});
