import type { Browser, BrowserContext, Page } from 'playwright-core';
import { newId } from '../../domain/ids';
import { launchBrowser } from '../support/browser';
import { usePlatform } from '../support/platform';
import { signedInUser } from '../dashboard-api/browser-session';
import { subscriptions, waitFor } from '../subscriptions/fixtures';
import { checkPage } from './page-check';

/**
 * Issue 19: the subscription page shows the status history the platform records (paged), and
 * the API keys page names a bound key's channels, in Debian's Chromium against the real platform.
 */
const platform = usePlatform();

let browser: Browser;
let context: BrowserContext;
let page: Page;

const url = (path: string) => `${platform.baseUrl}/dashboard${path}`;

async function visit(path: string, title: string): Promise<void> {
  await page.goto(url(path));
  await page.getByRole('heading', { level: 1, name: title }).waitFor({ timeout: 15_000 });
}

/** The history table's rows as the page shows them: [from, to, cause]. */
async function shownChanges(): Promise<string[][]> {
  const table = page.getByRole('table', { name: 'Status changes, newest first' });
  await table.getByRole('row').nth(1).waitFor();
  const rows = await table.locator('tbody tr').all();
  return Promise.all(rows.map(async (row) => (await row.locator('td').allTextContents()).slice(1)));
}

beforeAll(async () => {
  browser = await launchBrowser();
  const session = await signedInUser(platform, 'support@example.test', 'SUPPORT');
  // axe-core goes in as an inline script, which the dashboard's CSP refuses: the test lifts it.
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  await context.addCookies([{ name: 'bp_session', value: session.cookie!, url: platform.baseUrl }]);
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('the subscription page in a real browser', () => {
  it('shows the recorded changes newest first, with their causes in words, and passes axe', async () => {
    const s = subscriptions(platform);
    const { customerId } = await s.payer();
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: await s.price(1_500), quantity: 1 }] });
    await s.statusBecomes(created.id, 'ACTIVE');
    await s.ok('subscriptions/cancel', { id: created.id, mode: 'IMMEDIATELY' });
    await waitFor('three recorded changes', async () => (await platform.db.subscriptionStatusChange.count({ where: { subscriptionId: created.id } })) === 3);

    await visit(`/subscriptions/${created.id}`, `Subscription ${created.id}`);
    expect(await shownChanges()).toEqual([
      ['Active', 'Cancelled', 'Cancellation requested'],
      ['Pending', 'Active', 'Invoice paid'],
      ['—', 'Pending', 'Created'],
    ]);
    // Nothing read from the subscription's own dates any more.
    expect(await page.getByText('Last change: now').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    expect(await checkPage(page, 'subscription-history')).toEqual([]);
  });

  it('pages through a long history 20 changes at a time', async () => {
    const s = subscriptions(platform);
    const { customerId } = await s.payer();
    const created = await s.ok('subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: await s.price(900), quantity: 1 }],
      starts_at: new Date((await s.now()) + 30 * 86_400_000).toISOString(),
    });
    // Twenty-four more changes than the workflow would make in a test's time, as rows of later versions.
    const start = Date.parse(created.created_at);
    const { accountId } = await platform.db.subscription.findUniqueOrThrow({ where: { id: created.id }, select: { accountId: true } });
    await platform.db.subscriptionStatusChange.createMany({
      data: Array.from({ length: 24 }, (_, i) => ({
        id: newId('subscriptionStatusChange', start + (i + 1) * 1000),
        accountId,
        subscriptionId: created.id,
        fromStatus: i % 2 === 0 ? 'ACTIVE' : 'REDEMPTION',
        toStatus: i % 2 === 0 ? 'REDEMPTION' : 'ACTIVE',
        cause: i % 2 === 0 ? 'PAYMENT_FAILED' : 'PAYMENT_SUCCEEDED',
        version: 100 + i,
        occurredAt: new Date(start + (i + 1) * 1000),
      })),
    });

    await visit(`/subscriptions/${created.id}`, `Subscription ${created.id}`);
    const first = await shownChanges();
    expect(first).toHaveLength(20);
    expect(first[0]).toEqual(['In redemption (payment overdue)', 'Active', 'Invoice paid']);
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Page 2').waitFor();
    // The first change's cause and its status both read "Created".
    await page.getByRole('cell', { name: 'Created', exact: true }).first().waitFor();
    const second = await shownChanges();
    expect(second).toHaveLength(5);
    expect(second.at(-1)).toEqual(['—', 'Created', 'Created']);
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.getByText('Page 1').waitFor();
    expect(await shownChanges()).toEqual(first);
  });
});

describe('the API keys page names the channels', () => {
  it('shows a bound key’s channel names and “All channels” for an account-level key', async () => {
    const [, two, three] = platform.channelIds;
    const bound = await platform.call('/v2/api-keys/create', { name: 'Two channels', channel_ids: [two, three], permissions: ['customers:get'] });
    expect(bound.status).toBe(200);
    const signedIn = await signedInUser(platform, 'developer@example.test', 'DEVELOPER');
    await context.addCookies([{ name: 'bp_session', value: signedIn.cookie!, url: platform.baseUrl }]);
    await visit('/developers/api-keys', 'API keys');
    const row = page.getByRole('row').filter({ hasText: 'Two channels' });
    await row.getByRole('cell', { name: 'two, three', exact: true }).waitFor();
    expect(await row.getByText(two).count()).toBe(0);
    await page.getByRole('row').filter({ hasText: 'root' }).getByRole('cell', { name: 'All channels', exact: true }).waitFor();
    expect(await checkPage(page, 'api-keys-channel-names')).toEqual([]);
  });
});
