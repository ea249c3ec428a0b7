import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createInvitation } from '../../services/dashboard/invitations';
import { launchBrowser } from '../support/browser';
import { usePlatform } from '../support/platform';
import { startReceiver, waitFor, type TestReceiver } from '../webhooks/receiver';
import { checkPage } from './page-check';

/**
 * Issue 19 §2: a DEVELOPER revokes an API key and sends a test event to a webhook endpoint in
 * Debian's Chromium against the real platform; both land in the audit log.
 */
const platform = usePlatform();

const DEVELOPER_EMAIL = 'keys-and-hooks@example.com';
const DEVELOPER_PASSWORD = 'developer passphrase';

let browser: Browser;
let context: BrowserContext;
let developer: Page;
let receiver: TestReceiver;

const url = (path: string) => `${platform.baseUrl}/dashboard${path}`;

async function heading(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 15_000 });
}

async function expectAccessible(page: Page, name: string): Promise<void> {
  expect(await checkPage(page, name)).toEqual([]);
}

async function focused(page: Page): Promise<string> {
  return page.evaluate(() => ((globalThis as any).document.activeElement?.textContent ?? '') as string);
}

async function ok(path: string, body: unknown) {
  const res = await platform.call(`/v2/${path}`, body);
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const audited = (action: string, objectId: string) =>
  waitFor(`${action} of ${objectId} in the audit log`, async () => (await platform.db.dashboardAuditEntry.findFirst({ where: { action, objectId } })) ?? undefined, 10_000);

beforeAll(async () => {
  browser = await launchBrowser();
  // axe-core goes in as an inline script, which the dashboard's CSP refuses (as in dashboard.test.ts).
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  developer = await context.newPage();
  const invitation = await createInvitation(platform.db, { accountId: platform.accountId, email: DEVELOPER_EMAIL, role: 'DEVELOPER', invitedBy: null }, new Date());
  await developer.goto(invitation.url);
  await heading(developer, 'Set your password');
  await developer.getByLabel('New password').fill(DEVELOPER_PASSWORD);
  await developer.getByLabel('Repeat the password').fill(DEVELOPER_PASSWORD);
  await developer.getByRole('button', { name: 'Set password and sign in' }).click();
  await heading(developer, 'API keys');
  receiver = await startReceiver();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await receiver?.close();
});

describe('dashboard actions of a DEVELOPER', () => {
  it('picks permissions by resource group, read only or everything, and shows a key’s permissions grouped the same way (issue 44)', async () => {
    await developer.goto(url('/developers/api-keys'));
    await heading(developer, 'API keys');
    const form = developer.getByRole('region', { name: 'Create a key' });
    const chosen = () => form.locator('input[name="permission"]:checked').evaluateAll((boxes) => boxes.map((box) => (box as any).value as string));
    const customers = form.getByRole('group', { name: /^Customers / });
    expect(await customers.getByRole('checkbox').evaluateAll((boxes) => boxes.map((box) => (box as any).value))).toEqual(['customers:get', 'customers:list']);

    // A developer may grant only reads of customers: "Read only" is everything there, so only "Everything" is offered.
    expect(await form.getByRole('button', { name: 'Read only, Customers' }).count()).toBe(0);
    await form.getByRole('button', { name: 'Everything, Customers' }).click();
    await form.getByRole('button', { name: 'Read only, Webhooks' }).click();
    expect(await chosen()).toEqual(['customers:get', 'customers:list', 'webhooks:list', 'webhooks:get', 'webhooks:list-deliveries']);
    await form.getByRole('group', { name: 'Webhooks (read only)' }).waitFor();
    await form.getByRole('checkbox', { name: 'webhooks:redeliver' }).check();
    await form.getByRole('group', { name: 'Webhooks (4 of 9)' }).waitFor();
    await expectAccessible(developer, 'api-keys-grouped-permissions');

    await form.getByRole('button', { name: 'None, every group' }).click();
    expect(await chosen()).toEqual([]);
    await form.getByRole('button', { name: 'Read only, every group' }).click();
    const reads = await chosen();
    expect(reads).toContain('invoices:get');
    expect(reads.filter((permission) => !/:(get|list)(-|$)/.test(permission) && permission !== 'reports:download' && permission !== 'usage:summary')).toEqual([]);
    await form.getByRole('button', { name: 'None, every group' }).click();
    await form.getByRole('button', { name: 'Everything, API keys' }).click();
    await form.getByRole('button', { name: 'Read only, Webhooks' }).click();
    await form.getByRole('checkbox', { name: 'invoices:list' }).check();
    await form.getByLabel('Name', { exact: true }).fill('Grouped');
    await form.getByRole('button', { name: 'Create key' }).click();
    await developer.getByRole('heading', { name: 'Secret of Grouped' }).waitFor();
    const stored = await platform.db.apiKey.findFirstOrThrow({ where: { name: 'Grouped' } });
    expect([...stored.permissions].sort()).toEqual(
      ['api-keys:create', 'api-keys:list', 'api-keys:get', 'api-keys:rotate', 'api-keys:revoke', 'invoices:list', 'webhooks:list', 'webhooks:get', 'webhooks:list-deliveries'].sort(),
    );

    const row = developer.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'Grouped' });
    expect(await row.getByRole('listitem').allTextContents()).toEqual([
      'API keys: everything (create, list, get, rotate, revoke)',
      'Invoices: list',
      'Webhooks: read only (list, get, list-deliveries)',
    ]);
  });

  it('revokes an API key during its rotation behind a keyboard-usable confirmation; both secrets stop at once; audited', async () => {
    const key = await ok('api-keys/create', { name: 'Leaky', permissions: ['customers:list', 'webhooks:get'] });
    const rotated = await ok('api-keys/rotate', { id: key.id, rotation_period: 3600 });
    const works = async (secret: string) => (await platform.call('/v2/customers/list', {}, { secret })).status;
    expect(await works(key.secret)).toBe(200);
    const stronger = await ok('api-keys/create', { name: 'Stronger', permissions: ['invoices:void'] });

    await developer.goto(url('/developers/api-keys'));
    await heading(developer, 'API keys');
    const table = developer.getByRole('table', { name: 'API keys' });
    const row = table.getByRole('row').filter({ hasText: 'Leaky' });
    await row.getByText(/Rotation in progress/).waitFor();

    // Keyboard only: Enter opens the confirmation with focus on its heading; Escape closes it, nothing revoked.
    await developer.getByRole('button', { name: 'Revoke Leaky' }).focus();
    await developer.keyboard.press('Enter');
    const confirmation = developer.getByRole('alertdialog', { name: 'Revoke Leaky?' });
    await confirmation.waitFor();
    expect(await focused(developer)).toBe('Revoke Leaky?');
    await confirmation.getByText(/the previous one of the rotation in progress too/).waitFor();
    await expectAccessible(developer, 'api-keys-revoke-confirmation');
    await developer.keyboard.press('Escape');
    await confirmation.waitFor({ state: 'detached' });
    expect(await works(key.secret)).toBe(200);

    await developer.getByRole('button', { name: 'Revoke Leaky' }).focus();
    await developer.keyboard.press('Enter');
    await confirmation.waitFor();
    await developer.keyboard.press('Tab');
    expect(await focused(developer)).toBe('Revoke key');
    await developer.keyboard.press('Enter');
    await developer.getByRole('status').filter({ hasText: 'Leaky is revoked' }).waitFor();
    await row.getByText(/^Revoked /).waitFor();
    expect(await row.getByRole('button').count()).toBe(0);

    expect(await works(key.secret)).toBe(401);
    expect(await works(rotated.rotate_secret)).toBe(401);
    expect((await ok('api-keys/get', { id: key.id })).status).toBe('REVOKED');
    const entry = await audited('api-keys/revoke', key.id);
    expect(entry.userEmail).toBe(DEVELOPER_EMAIL);
    await expectAccessible(developer, 'api-keys-revoked');

    // A key holding more than a DEVELOPER: the server refuses and the page says why.
    await developer.getByRole('button', { name: 'Revoke Stronger' }).click();
    await developer.getByRole('alertdialog', { name: 'Revoke Stronger?' }).getByRole('button', { name: 'Revoke key' }).click();
    await developer.getByRole('alert').filter({ hasText: 'PERMISSION_DENIED' }).waitFor();
    expect((await ok('api-keys/get', { id: stronger.id })).status).toBe('ACTIVE');
  });

  it('sends a test event to an ACTIVE endpoint only: signed, received, in the delivery log; audited', async () => {
    const endpoint = await ok('webhooks/create', { url: receiver.url, event_types: ['INVOICE_PAID'] });
    receiver.setSecrets([endpoint.secret]);

    await developer.goto(url(`/developers/webhooks/${endpoint.id}`));
    await heading(developer, 'Webhook endpoint');
    expect(await developer.getByTestId('endpoint-status').textContent()).toBe('Inactive');
    await developer.getByText('Activate the endpoint to send it a test event').waitFor();
    expect(await developer.getByRole('button', { name: 'Send test event' }).count()).toBe(0);

    await developer.getByRole('button', { name: 'Activate' }).click();
    await developer.getByTestId('endpoint-status').filter({ hasText: /^Active$/ }).waitFor();
    await developer.getByRole('button', { name: 'Send test event' }).click();
    const queued = developer.getByRole('status').filter({ hasText: 'WEBHOOK_TEST' });
    await queued.waitFor();
    const eventId = /(evt_\S+)/.exec((await queued.textContent())!)![1]!;

    // The receiver kit accepts only a valid signature.
    const received = await waitFor('the test event at the receiver', () => receiver.processed.find((e) => e.event_id === eventId));
    expect(received).toMatchObject({ event_type: 'WEBHOOK_TEST', data: { webhook_endpoint_id: endpoint.id } });

    const log = developer.getByRole('table', { name: 'Deliveries to this endpoint' });
    const deadline = Date.now() + 60_000;
    while ((await log.getByText(/#1 200 ok/).count()) === 0) {
      if (Date.now() > deadline) throw new Error(`no successful attempt shown: ${await developer.locator('main').innerText()}`);
      await developer.getByRole('button', { name: 'Refresh' }).click();
      await developer.waitForTimeout(500);
    }
    await log.getByRole('cell', { name: `WEBHOOK_TEST (${eventId})` }).waitFor();
    await log.getByRole('cell', { name: 'SUCCEEDED' }).waitFor();
    const entry = await audited('webhooks/send-test-event', endpoint.id);
    expect(entry.userEmail).toBe(DEVELOPER_EMAIL);
    await expectAccessible(developer, 'webhook-test-event');
  });
});
