import { createAccount } from '../../scripts/operator/accounts';
import { createInvitation } from '../../services/dashboard/invitations';
import { usePlatform } from '../support/platform';
import { BrowserSession, PASSWORD, signedInUser, tokenOf } from './browser-session';

/** docs/dashboard.md, "Sessions": an e-mail is unique within an account, not across accounts. */
const platform = usePlatform();
// Each refused attempt held a second would only slow the file (refusal-tarpit.test.ts tests the hold).
process.env.DASHBOARD_PUBLIC_REFUSAL_HOLD_MS = '1';

const browser = () => new BrowserSession(() => platform.baseUrl);

describe('one address in two accounts', () => {
  it('an invitation answers the same whether or not the address is a user elsewhere; the person joins both and signs in to either', async () => {
    const other = await createAccount(platform.db, 'Another merchant');
    const otherInvitation = await createInvitation(platform.db, { accountId: other.id, email: 'both@example.test', role: 'SUPPORT', invitedBy: null }, new Date());
    expect((await browser().post('/dashboard/api/session/accept-invitation', { token: tokenOf(otherInvitation.url), password: 'the other password' })).status).toBe(200);

    const admin = await signedInUser(platform, 'admin-of-first@example.test', 'MERCHANT_ADMIN');
    const known = await admin.post('/dashboard/api/users/invite', { email: 'both@example.test', role: 'DEVELOPER' });
    const unknown = await admin.post('/dashboard/api/users/invite', { email: 'nowhere-else@example.test', role: 'DEVELOPER' });
    expect(known.status).toBe(200);
    expect(Object.keys(known.body)).toEqual(Object.keys(unknown.body));
    expect((await admin.post('/dashboard/api/users/invite', { email: 'admin-of-first@example.test', role: 'SUPPORT' })).body.code).toBe('USER_EXISTS');

    const joined = await browser().post('/dashboard/api/session/accept-invitation', { token: tokenOf(known.body.invitation_url), password: PASSWORD });
    expect(joined).toMatchObject({ status: 200, body: { user: { email: 'both@example.test', account_id: platform.accountId, role: 'DEVELOPER' } } });

    const intoFirst = await browser().post('/dashboard/api/session/sign-in', { email: 'both@example.test', password: PASSWORD });
    expect(intoFirst.body.user.account_id).toBe(platform.accountId);
    const intoOther = await browser().post('/dashboard/api/session/sign-in', { email: 'both@example.test', password: 'the other password' });
    expect(intoOther.body.user.account_id).toBe(other.id);
    const named = await browser().post('/dashboard/api/session/sign-in', { email: 'both@example.test', password: PASSWORD, account_id: other.id });
    expect(named).toMatchObject({ status: 401, body: { code: 'INVALID_CREDENTIALS' } });
  });
});
