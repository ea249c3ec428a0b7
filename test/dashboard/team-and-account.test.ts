import type { Browser, BrowserContext, Page } from 'playwright-core';
import { recordAudit } from '../../services/dashboard/audit-log';
import { createInvitation } from '../../services/dashboard/invitations';
import { readPortalSettings } from '../../services/portal/settings';
import { launchBrowser } from '../support/browser';
import { usePlatform } from '../support/platform';
import { checkPage } from './page-check';

/**
 * Issue 40 items 6 and 7 in Debian's Chromium against the real platform: an admin sees and
 * revokes pending invitations on the Team page, makes a reset link, removes a user with the keys
 * they issued; anyone changes their own password on the Account page. Issue 43: an admin sets
 * the customer portal's settings there, others read them; the audit log names a customer as one.
 */
const platform = usePlatform();

const ADMIN_EMAIL = 'team-admin@example.com';
const ADMIN_PASSWORD = 'team admin passphrase';
const NEW_PASSWORD = 'a changed passphrase';

let browser: Browser;
const contexts: BrowserContext[] = [];
let admin: Page;

const url = (path: string) => `${platform.baseUrl}/dashboard${path}`;

async function heading(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 15_000 });
}

async function newPage(): Promise<Page> {
  // axe-core goes in as an inline script, which the dashboard's CSP refuses (as in dashboard.test.ts).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  contexts.push(context);
  return context.newPage();
}

async function joinAs(email: string, role: 'MERCHANT_ADMIN' | 'DEVELOPER' | 'SUPPORT', password: string, landing: string): Promise<Page> {
  const page = await newPage();
  const invitation = await createInvitation(platform.db, { accountId: platform.accountId, email, role, invitedBy: null }, new Date());
  await page.goto(invitation.url);
  await heading(page, 'Set your password');
  await page.getByLabel('New password').fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await heading(page, landing);
  return page;
}

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(url('/sign-in'));
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await joinAs(ADMIN_EMAIL, 'MERCHANT_ADMIN', ADMIN_PASSWORD, 'Overview');
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('the Team page', () => {
  it('lists pending invitations and revokes one: its link then says it was revoked', async () => {
    await admin.goto(url('/team'));
    await heading(admin, 'Team');
    for (const email of ['pending-one@example.com', 'pending-two@example.com']) {
      await admin.getByLabel('E-mail').fill(email);
      await admin.getByRole('button', { name: 'Create invitation link' }).click();
      await admin.getByRole('table', { name: 'Pending invitations' }).getByRole('cell', { name: email, exact: true }).waitFor();
    }
    const revokedLink = (await admin.getByTestId('invitation-url').textContent())!;
    expect(await checkPage(admin, 'team-pending-invitations')).toEqual([]);

    await admin.getByRole('button', { name: 'Revoke the invitation of pending-two@example.com' }).click();
    const pending = admin.getByRole('table', { name: 'Pending invitations' });
    await pending.getByRole('cell', { name: 'pending-two@example.com', exact: true }).waitFor({ state: 'detached' });
    expect(await pending.getByRole('cell', { name: 'pending-one@example.com', exact: true }).count()).toBe(1);

    const invited = await newPage();
    await invited.goto(revokedLink);
    await heading(invited, 'Set your password');
    await invited.getByText('This invitation was revoked; ask an admin for a new one.').waitFor();
  });

  it('makes a reset link for a member, and removes a member together with the API keys they issued', async () => {
    const member = await joinAs('member@example.com', 'DEVELOPER', 'member passphrase', 'API keys');
    const issued = await member.evaluate(async () => {
      const me = (await (await fetch('/dashboard/api/session/me', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as { csrf_token: string };
      const response = await fetch('/v2/api-keys/create', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrf_token },
        body: JSON.stringify({ name: 'Member key', permissions: ['webhooks:list'] }),
      });
      return (await response.json()) as { id: string; secret: string };
    });

    const memberId = (await platform.db.dashboardUser.findFirstOrThrow({ where: { email: 'member@example.com' } })).id;
    await admin.goto(url('/developers/api-keys'));
    await heading(admin, 'API keys');
    const keyRow = admin.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'Member key' });
    await keyRow.getByRole('cell', { name: memberId, exact: true }).waitFor();

    await admin.goto(url('/team'));
    await heading(admin, 'Team');
    await admin.getByRole('button', { name: 'Password reset link for member@example.com' }).click();
    const resetLink = (await admin.getByTestId('reset-url').textContent())!;
    expect(resetLink).toContain('/dashboard/reset-password?token=');

    const resetting = await newPage();
    await resetting.goto(resetLink);
    await heading(resetting, 'Choose a new password');
    await resetting.getByText('For member@example.com in').waitFor();
    expect(await checkPage(resetting, 'reset-password')).toEqual([]);
    await resetting.getByLabel('New password').fill('member reset passphrase');
    await resetting.getByLabel('Repeat the password').fill('member reset passphrase');
    await resetting.getByRole('button', { name: 'Set the new password' }).click();
    await resetting.getByRole('status').getByText('Your password is set.').waitFor();

    await admin.getByRole('button', { name: 'Remove member@example.com' }).click();
    const removal = admin.getByRole('region', { name: 'Remove member@example.com' });
    await removal.getByText('Member key').waitFor();
    await removal.getByLabel('Also revoke these 1 API keys').check();
    await removal.getByRole('button', { name: 'Remove from the team' }).click();
    await admin.getByRole('cell', { name: 'member@example.com', exact: true }).waitFor({ state: 'detached' });
    expect((await platform.call('/v2/api-keys/get', { id: issued.id })).body.status).toBe('REVOKED');
    expect((await platform.call('/v2/webhooks/list', {}, { secret: issued.secret })).status).toBe(401);
  });
});

describe('the Account page', () => {
  it('changes the user’s own password: a wrong current one is refused, the new one signs in', async () => {
    const support = await joinAs('support-person@example.com', 'SUPPORT', 'support passphrase', 'Overview');
    await support.goto(url('/account'));
    await heading(support, 'Account security');
    const form = support.getByRole('region', { name: 'Password' });
    await form.getByLabel('Current password').fill('not my passphrase');
    await form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await form.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByRole('alert').getByText('This is not your current password.').waitFor();

    await form.getByLabel('Current password').fill('support passphrase');
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByRole('status').getByText('Password changed.').waitFor();
    expect(await checkPage(support, 'account-password-changed')).toEqual([]);

    const again = await newPage();
    await signIn(again, 'support-person@example.com', 'support passphrase');
    await again.getByRole('alert').waitFor();
    await signIn(again, 'support-person@example.com', NEW_PASSWORD);
    await heading(again, 'Overview');
  });
});

describe('the Account page’s customer portal settings', () => {
  it('an admin lets customers cancel at once, change quantities and switch between two prices; others see them read-only', async () => {
    const product = (await platform.call('/v2/products/create', { name: 'Team plan' })).body;
    const price = async (body: Record<string, unknown>) =>
      (await platform.call('/v2/product-prices/create', { product_id: product.id, currency: 'EUR', ...body })).body.id as string;
    const monthly = await price({ amount: 1900, billing_type: 'RECURRING', billing_period_config: { value: 1, unit: 'MONTH' } });
    const yearly = await price({ amount: 19000, billing_type: 'RECURRING', billing_period_config: { value: 1, unit: 'YEAR' } });
    await price({ amount: 5000, billing_type: 'ONE_TIME' });

    await admin.goto(url('/account'));
    await heading(admin, 'Account security');
    const section = admin.getByRole('region', { name: 'Customer portal' });
    const cancellation = section.getByRole('group', { name: 'Customers may cancel a subscription' });
    await cancellation.getByLabel('At the end of the billing period').waitFor();
    expect(await cancellation.getByLabel('At the end of the billing period').isChecked()).toBe(true);
    expect(await section.getByLabel('Update their billing details (address, tax registrations, e-mail)').isChecked()).toBe(true);
    await section.getByText('None: customers cannot switch prices.').waitFor();
    const picker = section.getByRole('table', { name: 'Recurring prices' });
    await picker.getByLabel('Team plan · €19.00 every month').waitFor();
    expect(await picker.getByText('€50.00').count()).toBe(0);

    await cancellation.getByLabel('Immediately').check();
    await section.getByLabel('Change the quantity of a subscription line').check();
    await picker.getByLabel('Team plan · €19.00 every month').check();
    await picker.getByLabel('Team plan · €190.00 every year').check();
    const chosen = section.getByRole('list', { name: 'Prices customers may switch between' });
    await chosen.getByText('Team plan · €190.00 every year').waitFor();
    await section.getByRole('button', { name: 'Save portal settings' }).click();
    await section.getByRole('status').getByText('Customer portal settings saved.').waitFor();
    expect(await readPortalSettings(platform.db, platform.accountId)).toEqual({
      cancellation: 'IMMEDIATELY',
      quantity_changes: true,
      switchable_price_ids: [monthly, yearly],
      billing_details_updates: true,
    });
    expect(await checkPage(admin, 'account-portal-settings')).toEqual([]);

    await chosen.getByRole('button', { name: 'Remove Team plan · €19.00 every month' }).click();
    await section.getByRole('button', { name: 'Save portal settings' }).click();
    await section.getByRole('status').getByText('Customer portal settings saved.').waitFor();
    expect((await readPortalSettings(platform.db, platform.accountId)).switchable_price_ids).toEqual([yearly]);

    const developer = await joinAs('portal-reader@example.com', 'DEVELOPER', 'developer passphrase', 'API keys');
    await developer.goto(url('/account'));
    await heading(developer, 'Account security');
    const readOnly = developer.getByRole('region', { name: 'Customer portal' });
    await readOnly.getByRole('list', { name: 'Prices customers may switch between' }).getByText('Team plan · €190.00 every year').waitFor();
    expect(await readOnly.getByLabel('Immediately').isChecked()).toBe(true);
    expect(await readOnly.getByLabel('Immediately').isDisabled()).toBe(true);
    expect(await readOnly.getByRole('button', { name: 'Save portal settings' }).count()).toBe(0);
    expect(await readOnly.getByRole('table', { name: 'Recurring prices' }).count()).toBe(0);
    await readOnly.getByText('Only a merchant admin can change these.').waitFor();
    expect(await checkPage(developer, 'account-portal-settings-read-only')).toEqual([]);
  });
});

describe('the Audit log page', () => {
  it('names a customer acting in the portal as the customer, linked to their page', async () => {
    const customer = (await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'portal-customer@example.com' })).body;
    await recordAudit(
      platform.db,
      { actorType: 'CUSTOMER', userId: customer.id, email: 'portal-customer@example.com', accountId: platform.accountId },
      { ip: '203.0.113.9' },
      { action: 'subscriptions/cancel', objectId: 'sub_portal', at: new Date() },
    );
    await admin.goto(url('/audit-log'));
    await heading(admin, 'Audit log');
    const row = admin.getByRole('table', { name: 'Audit log' }).getByRole('row').filter({ hasText: 'subscriptions/cancel' });
    const link = row.getByRole('link', { name: 'Customer portal-customer@example.com' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/dashboard/customers/${customer.id}`);
    await admin.getByRole('table', { name: 'Audit log' }).getByRole('cell', { name: ADMIN_EMAIL, exact: true }).first().waitFor();
    expect(await checkPage(admin, 'audit-log-customer-entry')).toEqual([]);
    await link.click();
    await heading(admin, /^Customer/);
    expect(new URL(admin.url()).pathname).toBe(`/dashboard/customers/${customer.id}`);
  });
});
