import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DashboardRole } from '../../domain/dashboard-roles';
import { signedInUser } from '../dashboard-api/browser-session';
import { launchBrowser } from '../support/browser';
import { usePlatform } from '../support/platform';
import { checkPage } from './page-check';

/**
 * Issue 42 item 6: the Meters page in Debian's Chromium against the real platform. An admin
 * creates a meter, gives it a new version from a stated moment and archives it; the list pages;
 * a support user sees the same meters and no action. The tests run in order over one meter.
 */
const platform = usePlatform();

let browser: Browser;
const contexts: BrowserContext[] = [];
let admin: Page;
let support: Page;
let meterId: string;

const url = (path: string) => `${platform.baseUrl}/dashboard${path}`;

async function signedIn(email: string, role: DashboardRole): Promise<Page> {
  const session = await signedInUser(platform, email, role);
  // axe-core goes in as an inline script, which the dashboard's CSP refuses: the test lifts it.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  contexts.push(context);
  await context.addCookies([{ name: 'bp_session', value: session.cookie!, url: platform.baseUrl }]);
  return context.newPage();
}

async function visit(page: Page, path: string, title: string | RegExp): Promise<void> {
  await page.goto(url(path));
  await page.getByRole('heading', { level: 1, name: title }).waitFor({ timeout: 15_000 });
}

async function expectAccessible(page: Page, name: string): Promise<void> {
  expect(await checkPage(page, name)).toEqual([]);
}

/** The rows of the table captioned `caption`, each as its cells' texts, once it has `count` rows. */
async function rows(page: Page, caption: string | RegExp, count: number): Promise<string[][]> {
  const table = page.getByRole('table', { name: caption });
  const deadline = Date.now() + 30_000;
  while ((await table.locator('tbody tr').count()) !== count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return Promise.all((await table.locator('tbody tr').all()).map((row) => row.locator('td').allTextContents()));
}

const VERSIONS = /^Versions/;

/** `2026-12-01T09:30` in UTC, as a datetime-local field takes it, `days` from now. */
function localUtc(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 16);
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await signedIn('meters-admin@example.test', 'MERCHANT_ADMIN');
  support = await signedIn('meters-support@example.test', 'SUPPORT');
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('the Meters page in a real browser', () => {
  it('an admin creates a SUM meter with a filter and a group-by, and lands on it with version 1 in force', async () => {
    await visit(admin, '/meters', 'Meters');
    await admin.getByRole('link', { name: 'Meters', exact: true }).and(admin.locator('[aria-current="page"]')).waitFor();
    await admin.getByLabel('Name', { exact: true }).fill('Storage');
    await admin.getByLabel(/^Event name/).fill('storage.used');
    await admin.getByLabel(/^Aggregation/).selectOption('SUM');
    await admin.getByLabel(/^Property \(a dotted path/).fill('usage.bytes');
    await admin.getByRole('button', { name: 'Add filter' }).click();
    const filter = admin.getByRole('group', { name: 'Filter 1' });
    await filter.getByLabel('Property').fill('region');
    await filter.getByLabel('Operator').selectOption('IN');
    await filter.getByLabel(/^Values/).fill('eu, us');
    await admin.getByLabel(/^Group by/).fill('region');
    await expectAccessible(admin, 'meters-create');
    await admin.getByRole('button', { name: 'Create meter' }).click();

    await admin.getByRole('heading', { level: 1, name: 'Meter Storage' }).waitFor({ timeout: 15_000 });
    meterId = new URL(admin.url()).pathname.split('/').pop()!;
    expect(meterId).toMatch(/^mtr_/);
    expect(await rows(admin, VERSIONS, 1)).toEqual([['1', 'Every timestamp', 'usage.bytes', 'region is one of eu, us', 'region', 'In force']]);
    expect(await admin.getByTestId('meter-status').textContent()).toBe('Active');
    // What the form sent is what the API stored.
    const stored = await platform.call('/v2/meters/get', { id: meterId });
    expect(stored.body).toMatchObject({
      name: 'Storage',
      event_name: 'storage.used',
      aggregation: 'SUM',
      property: 'usage.bytes',
      filters: [{ property: 'region', operator: 'IN', values: ['eu', 'us'] }],
      group_by: ['region'],
      version: 1,
    });
    await expectAccessible(admin, 'meter');
  });

  it('a new version takes effect at the stated UTC moment and shows as scheduled; one reaching back is refused with the earliest moment', async () => {
    await visit(admin, `/meters/${meterId}`, 'Meter Storage');
    const form = admin.getByRole('region', { name: 'New version' });
    // Starts from the newest definition.
    expect(await form.getByLabel(/^Property \(a dotted path/).inputValue()).toBe('usage.bytes');

    await form.getByLabel(/^Property \(a dotted path/).fill('usage.stored_bytes');
    await form.getByRole('button', { name: 'Remove filter 1' }).click();
    await form.getByLabel(/^Effective from/).fill(localUtc(-1));
    await form.getByRole('button', { name: 'Save new version' }).click();
    await form.getByRole('alert').filter({ hasText: 'METER_CHANGE_TOO_EARLY' }).waitFor();
    expect((await platform.call('/v2/meters/get', { id: meterId })).body.version).toBe(1);

    const from = localUtc(2);
    await form.getByLabel(/^Effective from/).fill(from);
    await form.getByRole('button', { name: 'Save new version' }).click();
    expect(await rows(admin, VERSIONS, 2)).toEqual([
      ['1', 'Every timestamp', 'usage.bytes', 'region is one of eu, us', 'region', 'In force'],
      ['2', `${from.replace('T', ' ')}:00 UTC`, 'usage.stored_bytes', 'none', 'region', 'Scheduled'],
    ]);
    const stored = (await platform.call('/v2/meters/get', { id: meterId })).body;
    expect(stored.versions[1]).toEqual({ version: 2, effective_from: `${from}:00.000000Z`, property: 'usage.stored_bytes', filters: [], group_by: ['region'] });
    // The form now starts from version 2.
    expect(await form.getByLabel(/^Property \(a dotted path/).inputValue()).toBe('usage.stored_bytes');
    await expectAccessible(admin, 'meter-new-version');

    await admin.getByLabel('Name', { exact: true }).fill('Storage (bytes)');
    await admin.getByRole('button', { name: 'Rename' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Meter Storage (bytes)' }).waitFor();
    expect((await platform.call('/v2/meters/get', { id: meterId })).body).toMatchObject({ name: 'Storage (bytes)', version: 2 });
  });

  it('a support user sees the meters and their versions but no form or action', async () => {
    await visit(support, '/meters', 'Meters');
    await support.getByRole('link', { name: 'Storage (bytes)' }).waitFor();
    expect(await support.getByRole('heading', { name: 'Create a meter' }).count()).toBe(0);
    await support.getByRole('link', { name: 'Storage (bytes)' }).click();
    await support.getByRole('heading', { level: 1, name: 'Meter Storage (bytes)' }).waitFor();
    expect(await rows(support, VERSIONS, 2)).toHaveLength(2);
    expect(await support.getByRole('button').filter({ hasText: /Rename|Save new version|Archive meter/ }).count()).toBe(0);
    await expectAccessible(support, 'meter-support');
  });

  it('archiving asks first (Escape leaves it), then the meter is ARCHIVED and offers no change', async () => {
    await visit(admin, `/meters/${meterId}`, 'Meter Storage (bytes)');
    await admin.getByRole('button', { name: 'Archive meter' }).click();
    const confirm = admin.getByRole('alertdialog', { name: 'Archive Storage (bytes)?' });
    await confirm.waitFor();
    expect(await admin.evaluate(() => (globalThis as any).document.activeElement.id)).toBe('archive-meter');
    await admin.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect((await platform.call('/v2/meters/get', { id: meterId })).body.status).toBe('ACTIVE');

    await admin.getByRole('button', { name: 'Archive meter' }).click();
    await confirm.waitFor();
    await expectAccessible(admin, 'meter-archive-confirm');
    // The first Tab from the heading reaches the confirming button.
    await admin.keyboard.press('Tab');
    await admin.keyboard.press('Enter');
    await admin.getByTestId('meter-status').getByText('ARCHIVED').waitFor();
    expect((await platform.call('/v2/meters/get', { id: meterId })).body).toMatchObject({ status: 'ARCHIVED', archived_at: expect.any(String) });
    expect(await admin.getByRole('button').filter({ hasText: /Rename|Save new version|Archive meter/ }).count()).toBe(0);
    await expectAccessible(admin, 'meter-archived');
  });

  it('lists 20 meters a page, newest first, and filters by status', async () => {
    for (let i = 1; i <= 21; i++) {
      const made = await platform.call('/v2/meters/create', { name: `Calls ${i}`, event_name: `calls.${i}`, aggregation: 'COUNT' });
      expect(made.status).toBe(200);
    }
    await visit(admin, '/meters', 'Meters');
    const first = await rows(admin, 'Meters, newest first', 20);
    expect(first[0]!.slice(0, 5)).toEqual(['Calls 21', 'calls.21', 'Count of events', '1', 'Active']);
    await admin.getByRole('button', { name: 'Next page' }).click();
    await admin.getByText('Page 2').waitFor();
    const second = await rows(admin, 'Meters, newest first', 2);
    expect(second.map((row) => row[0])).toEqual(['Calls 1', 'Storage (bytes)']);
    expect(second[1]!.slice(2, 5)).toEqual(['Sum of a property: usage.stored_bytes', '2', 'Archived']);

    await admin.getByLabel('Status').selectOption('ARCHIVED');
    expect((await rows(admin, 'Meters, newest first', 1)).map((row) => row[0])).toEqual(['Storage (bytes)']);
    await admin.getByText('Page 1').waitFor();
    await expectAccessible(admin, 'meters-list');
  });
});
