import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { createAccount } from '../../scripts/operator/accounts';
import { acceptInvitation } from '../../services/dashboard/invitations';
import { inviteFirstAdmin } from '../../services/dashboard/first-admin';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { usePlatform } from '../support/platform';
import { BrowserSession, PASSWORD, tokenOf } from './browser-session';

const ROOT = resolve(__dirname, '../..');
const platform = usePlatform();
// Each refused attempt held a second would only slow the file (refusal-tarpit.test.ts tests the hold).
process.env.DASHBOARD_PUBLIC_REFUSAL_HOLD_MS = '1';

describe('the first admin (npm start)', () => {
  it('is invited once, for the oldest account, and the link signs in once', async () => {
    const first = await inviteFirstAdmin(platform.db, new Date());
    expect(first).toMatchObject({ email: 'admin@localhost', role: 'MERCHANT_ADMIN' });
    expect(first!.url).toBe(`${platform.baseUrl}/dashboard/accept-invitation?token=${tokenOf(first!.url)}`);
    expect(await inviteFirstAdmin(platform.db, new Date())).toBeNull();

    const browser = new BrowserSession(() => platform.baseUrl);
    const shown = await browser.post('/dashboard/api/session/invitation', { token: tokenOf(first!.url) });
    expect(shown.body).toEqual({ email: 'admin@localhost', role: 'MERCHANT_ADMIN', account_name: 'Test account' });
    const accepted = await browser.post('/dashboard/api/session/accept-invitation', { token: tokenOf(first!.url), password: PASSWORD });
    expect(accepted.body.user).toMatchObject({ email: 'admin@localhost', role: 'MERCHANT_ADMIN', account_id: platform.accountId });
    expect((await browser.post('/dashboard/api/session/sign-out')).status).toBe(204);
    expect((await browser.post('/dashboard/api/session/sign-in', { email: 'admin@localhost', password: PASSWORD })).status).toBe(200);
    expect((await new BrowserSession(() => platform.baseUrl).post('/dashboard/api/session/accept-invitation', { token: tokenOf(first!.url), password: PASSWORD })).status).toBe(422);
    expect(await inviteFirstAdmin(platform.db, new Date())).toBeNull();
  });
});

describe('npm run operator -- invite-user', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  const operator = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/operator.ts'), 'invite-user', ...args], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: database.url, PUBLIC_URL: 'https://billing.example.test' },
    });

  it('prints an invitation link that works once', async () => {
    const account = await createAccount(database.db, 'Operated');
    const run = operator('--account', account.id, '--email', 'ops@example.test', '--role', 'DEVELOPER');
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const url = /invitation link \(works once\): (\S+)/.exec(run.stdout)?.[1];
    expect(url).toMatch(/^https:\/\/billing\.example\.test\/dashboard\/accept-invitation\?token=/);
    expect(JSON.parse(run.stdout.split('\n')[0]!)).toMatchObject({ email: 'ops@example.test', role: 'DEVELOPER', expires_at: expect.any(String) });

    const { user } = await acceptInvitation(database.db, { token: tokenOf(url!), password: PASSWORD }, new Date(), {});
    expect(user).toMatchObject({ accountId: account.id, email: 'ops@example.test', role: 'DEVELOPER' });
    await expect(acceptInvitation(database.db, { token: tokenOf(url!), password: PASSWORD }, new Date(), {})).rejects.toMatchObject({ code: 'INVITATION_INVALID' });

    const again = operator('--account', account.id, '--email', 'ops@example.test', '--role', 'DEVELOPER');
    expect(again.status).toBe(1);
    expect(again.stderr).toContain('already exists');
    const badRole = operator('--account', account.id, '--email', 'x@example.test', '--role', 'ROOT');
    expect(badRole.status).toBe(1);
    expect(badRole.stderr).toContain('MERCHANT_ADMIN, DEVELOPER, SUPPORT');
  });
});
