import type { DashboardActor } from '../../services/dashboard/actor';
import { createPasswordReset } from '../../services/dashboard/password-resets';
import { removeUser } from '../../services/dashboard/team';
import { usePlatform } from '../support/platform';
import { BrowserSession, PASSWORD, signedInUser, tokenOf } from './browser-session';

/**
 * docs/dashboard.md, "Team": the links an admin made (invitations, password reset links) die
 * when they stop being one, including links they were making at the moment they were removed.
 */
const platform = usePlatform();
// Each refused attempt held a second would only slow the file (refusal-tarpit.test.ts tests the hold).
process.env.DASHBOARD_PUBLIC_REFUSAL_HOLD_MS = '1';
const NEW_PASSWORD = 'a brand new passphrase';

let admin: BrowserSession;

beforeAll(async () => {
  admin = await signedInUser(platform, 'staying-admin@example.test', 'MERCHANT_ADMIN');
});

const browser = () => new BrowserSession(() => platform.baseUrl);
const meOf = async (b: BrowserSession) => (await b.post('/dashboard/api/session/me')).body.user as { id: string; email: string };
const resetWith = (url: string) => browser().post('/dashboard/api/session/reset-password', { token: tokenOf(url), password: NEW_PASSWORD });

describe('reset links of an admin who stops being one', () => {
  it.each([
    ['demoted', (id: string) => admin.post('/dashboard/api/users/update-role', { user_id: id, role: 'DEVELOPER' })],
    ['removed', (id: string) => admin.post('/dashboard/api/users/remove', { user_id: id })],
  ])('no longer set a password once their maker is %s; the other admin’s stay', async (outcome, endTrust) => {
    const maker = await signedInUser(platform, `reset-maker-${outcome}@example.test`, 'MERCHANT_ADMIN');
    const member = await meOf(await signedInUser(platform, `reset-member-${outcome}@example.test`, 'SUPPORT'));
    const other = await meOf(await signedInUser(platform, `reset-other-${outcome}@example.test`, 'SUPPORT'));
    const made = await maker.post('/dashboard/api/users/send-password-reset', { user_id: member.id });
    expect(made.status).toBe(200);
    const kept = await admin.post('/dashboard/api/users/send-password-reset', { user_id: other.id });

    expect([200, 204]).toContain((await endTrust((await meOf(maker)).id)).status);

    expect(await browser().post('/dashboard/api/session/password-reset', { token: tokenOf(made.body.reset_url) })).toMatchObject({
      status: 422,
      body: { code: 'RESET_LINK_INVALID' },
    });
    expect(await resetWith(made.body.reset_url)).toMatchObject({ status: 422, body: { code: 'RESET_LINK_INVALID' } });
    expect((await browser().post('/dashboard/api/session/sign-in', { email: member.email, password: PASSWORD })).status).toBe(200);
    expect((await resetWith(kept.body.reset_url)).status).toBe(204);
  });
});

describe('a reset link asked for with a session read before its maker lost admin rights', () => {
  it('is refused: 403 once demoted, 401 once removed', async () => {
    const member = await meOf(await signedInUser(platform, 'stale-reset-member@example.test', 'SUPPORT'));
    const staleActor = async (email: string): Promise<DashboardActor> => {
      const me = await meOf(await signedInUser(platform, email, 'MERCHANT_ADMIN'));
      return { userId: me.id, email, role: 'MERCHANT_ADMIN', accountId: platform.accountId, sessionId: '' };
    };
    const demoted = await staleActor('stale-demoted@example.test');
    const removed = await staleActor('stale-removed@example.test');
    expect((await admin.post('/dashboard/api/users/update-role', { user_id: demoted.userId, role: 'SUPPORT' })).status).toBe(200);
    expect((await admin.post('/dashboard/api/users/remove', { user_id: removed.userId })).status).toBe(204);

    await expect(createPasswordReset(platform.db, demoted, member.id, new Date())).rejects.toMatchObject({ code: 'PERMISSION_DENIED', context: { role: 'SUPPORT' } });
    await expect(createPasswordReset(platform.db, removed, member.id, new Date())).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(await platform.db.dashboardPasswordReset.count({ where: { userId: member.id } })).toBe(0);
  });
});

/** How many statements of the platform's database wait for a lock. */
async function waitingForLocks(): Promise<number> {
  const rows = await platform.db.$queryRaw<Array<{ n: number }>>`
    SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;
  return rows[0]!.n;
}

async function until(condition: () => Promise<boolean> | boolean): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('waited 10 s in vain');
}

describe('an invitation made while its inviter is being removed', () => {
  it('is refused or revoked: it never outlives the removal', async () => {
    const inviter = await signedInUser(platform, 'racing-inviter@example.test', 'MERCHANT_ADMIN');
    const inviterId = (await meOf(inviter)).id;
    const remover: DashboardActor = { userId: (await meOf(admin)).id, email: 'staying-admin@example.test', role: 'MERCHANT_ADMIN', accountId: platform.accountId, sessionId: '' };

    // The accounts table held still: users/invite passes its session check and then waits, so the
    // removal runs between the invitation's session check and its insert.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const hold = platform.db.$transaction(
      async (tx) => {
        await tx.$executeRaw`LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE`;
        await released;
      },
      { timeout: 30_000 },
    );
    const invited = inviter.post('/dashboard/api/users/invite', { email: 'racing-invitee@example.test', role: 'SUPPORT' });
    await until(async () => (await waitingForLocks()) >= 1);
    let removed = false;
    const removal = removeUser(platform.db, remover, inviterId, new Date(), { revokeApiKeys: false }).then(() => (removed = true));
    // Done, or waiting for the invitation's transaction.
    await until(async () => removed || (await waitingForLocks()) >= 2);
    release();
    await hold;
    await removal;
    const answer = await invited;

    expect(await platform.db.dashboardInvitation.count({ where: { invitedBy: inviterId, acceptedAt: null, revokedAt: null } })).toBe(0);
    if (answer.status === 200) {
      expect(await browser().post('/dashboard/api/session/accept-invitation', { token: tokenOf(answer.body.invitation_url), password: PASSWORD })).toMatchObject({
        status: 422,
        body: { code: 'INVITATION_INVALID', context: { reason: 'REVOKED' } },
      });
    }
  });
});
