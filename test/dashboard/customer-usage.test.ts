import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { dateTime } from '../../dashboard/src/components/format';
import type { DashboardRole } from '../../domain/dashboard-roles';
import { signedInUser } from '../dashboard-api/browser-session';
import { launchBrowser } from '../support/browser';
import type { Platform } from '../support/platform';
import { DAY, HOUR, MINUTE, useSubscriptionPlatform, waitFor, type SubscriptionSteps } from '../subscriptions/fixtures';
import { ingest, testMeter } from '../usage/usage-fixtures';
import { ARTIFACTS_DIR, checkPage } from './page-check';

/**
 * Issue 42 item 6: the customer page charts the usage of each meter a subscription bills, its
 * current period by UTC day and every period so far, from usage/summary, with the same numbers
 * in a table, and shows the next invoice with its usage to date (invoices/preview). In Debian's
 * Chromium against the real platform on the time-skipping test server; the tests run in order.
 */
let platform: Platform;
let s: SubscriptionSteps;

useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});

let browser: Browser;
const contexts: BrowserContext[] = [];
let admin: Page;
let meter: { id: string; event_name: string; created_at: string };
let customerId: string;
let subscriptionId: string;
/** The subscription's second period, current once the first was billed. */
let current: { start_at: string; end_at: string };

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

/** A usage figure's table as [span, quantity] rows, once it has `count` rows. */
async function tableRows(page: Page, testId: string, count: number): Promise<string[][]> {
  const table = page.getByTestId(testId);
  const deadline = Date.now() + 30_000;
  while ((await table.locator('tbody tr').count()) !== count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return Promise.all((await table.locator('tbody tr').all()).map((row) => row.locator('td').allTextContents()));
}

const span = (from: number, to: number) => `${dateTime(new Date(from).toISOString())} to ${dateTime(new Date(to).toISOString())}`;

async function ingestNow(events: { event_id: string; customer_id: string; timestamp: string }[]) {
  const answer = await s.ok('usage-events/ingest', { events: events.map((event) => ({ ...event, event_name: meter.event_name })) });
  expect(answer).toMatchObject({ accepted: events.length, rejected: 0 });
}

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await signedIn('usage-admin@example.test', 'MERCHANT_ADMIN');
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('usage on the customer page in a real browser', () => {
  it('charts the current period by day and every period so far, and previews the next invoice with its usage to date', async () => {
    meter = await s.ok('meters/create', { name: 'API requests', event_name: 'api.request', aggregation: 'COUNT' });
    const product = await s.ok('products/create', { name: 'API' });
    const price = await s.ok('product-prices/create', {
      product_id: product.id,
      currency: 'EUR',
      billing_type: 'USAGE',
      billing_period_config: { value: 1, unit: 'DAY' },
      meter_id: meter.id,
      usage_model: { model: 'PER_UNIT', unit_amount_decimal: '1.5' },
    });
    ({ customerId } = await s.payer());
    const startsAt = await s.soon();
    const start = Date.parse(startsAt);
    const created = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: price.id, quantity: 1 }], starts_at: startsAt });
    subscriptionId = created.id;
    // The first period's usage goes through ingestion while its timestamps are still within the API's clock.
    await ingestNow([10, 20, 30].map((second) => ({ event_id: `first-${second}`, customer_id: customerId, timestamp: new Date(start + second * 1000).toISOString() })));
    await s.sleep(2 * MINUTE);
    await s.statusBecomes(subscriptionId, 'ACTIVE');
    // A day and the usage grace later, the first period is invoiced: 3 × 1.5 = 4.5, rounded half up to 5.
    await s.sleep(DAY + 2 * HOUR);
    await waitFor('the first period invoiced', async () => ((await s.invoices(subscriptionId)).length >= 2 ? true : undefined), 60_000);
    const line = (await s.get(subscriptionId)).line_items[0];
    current = line.period;
    const currentStart = Date.parse(current.start_at);

    // The current period is ahead of the wall clock the API checks timestamps against (the test
    // server skipped a day): its events are written as ingestion writes them.
    const counted = testMeter({
      accountId: platform.accountId,
      meterId: meter.id,
      eventName: meter.event_name,
      aggregation: 'COUNT',
      createdAt: Date.parse(meter.created_at),
      versions: [{ effectiveFrom: 0, property: null, filters: [], groupBy: [] }],
    });
    const at = [HOUR, HOUR + 1, 20 * HOUR, 20 * HOUR + 1, 20 * HOUR + 2, 23 * HOUR].map((offset) => currentStart + offset);
    await ingest(
      platform.db,
      platform.accountId,
      [counted],
      at.map((timestamp, index) => ({ eventId: `current-${index}`, eventName: meter.event_name, customerId, timestamp, properties: {}, receivedAt: Date.now() })),
    );

    await visit(admin, `/customers/${customerId}`, /^Customer/);
    const usage = admin.getByRole('region', { name: `API requests (COUNT), subscription ${subscriptionId}` });
    await usage.waitFor();

    // Whole UTC days from the one the period starts in to the one it ends in, empty ones too.
    const dayMs = 86_400_000;
    const days: string[][] = [];
    for (let from = Math.floor(currentStart / dayMs) * dayMs; from < Date.parse(current.end_at); from += dayMs) {
      days.push([span(from, from + dayMs), String(at.filter((t) => t >= from && t < from + dayMs).length)]);
    }
    const currentId = `usage-${subscriptionId}-${meter.id}-current-table`;
    expect(await tableRows(admin, currentId, days.length)).toEqual(days);
    expect(await tableRows(admin, `usage-${subscriptionId}-${meter.id}-periods-table`, 2)).toEqual([
      [span(start, currentStart), '3'],
      [span(currentStart, Date.parse(current.end_at)), '6'],
    ]);

    // The chart: one drawn bar per day with usage, reachable with Tab, its arrows walking the bars.
    const currentFigure = usage.getByRole('figure', { name: /current period/ });
    await currentFigure.locator('svg.recharts-surface').waitFor();
    expect(await currentFigure.locator('.recharts-bar-rectangle path').count()).toBe(days.filter((row) => row[1] !== '0').length);
    await currentFigure.getByRole('button', { name: /Show the numbers/ }).focus();
    await admin.keyboard.press('Shift+Tab');
    expect(await admin.evaluate(() => (globalThis as any).document.activeElement.getAttribute('role'))).toBe('application');
    // Focus shows the first bar's exact quantity in the tooltip (a live region); the right arrow moves to the next.
    const tooltip = currentFigure.locator('.recharts-tooltip-wrapper');
    await tooltip.getByText(days[0]![0]!).waitFor();
    expect(await tooltip.locator('.recharts-tooltip-item-value').textContent()).toBe(days[0]![1]);
    await admin.keyboard.press('ArrowRight');
    await tooltip.getByText(days[1]![0]!).waitFor();
    expect(await tooltip.locator('.recharts-tooltip-item-value').textContent()).toBe(days[1]![1]);

    // The table is for screen readers until asked for; then it shows.
    const toggle = currentFigure.getByRole('button', { name: /Show the numbers/ });
    expect(await toggle.getAttribute('aria-pressed')).toBe('false');
    const width = () => admin.getByTestId(currentId).evaluate((table) => table.parentElement!.getBoundingClientRect().width);
    expect(await width()).toBeLessThanOrEqual(1);
    await toggle.press('Enter');
    expect(await toggle.getAttribute('aria-pressed')).toBe('true');
    expect(await width()).toBeGreaterThan(300);

    // The next invoice bills the 6 events so far: 6 × 1.5 = 9 minor units.
    const upcoming = admin.getByRole('table', { name: new RegExp(`^Next invoice of subscription ${subscriptionId}`) });
    await upcoming.waitFor();
    const lines = await Promise.all((await upcoming.locator('tbody tr').all()).map((row) => row.locator('td').allTextContents()));
    expect(lines).toEqual([[expect.any(String), '1', `6 from ${span(currentStart, Date.parse(current.end_at))}, to date`, '€0.09']]);
    const preview = (await s.ok('invoices/preview', { subscription_id: subscriptionId })).next_invoice;
    expect(preview.line_items[0].usage).toMatchObject({ quantity: '6', period: current });
    await expectAccessible(admin, 'customer-usage');
    // The charts alone, for docs/dashboard.md.
    await admin.getByRole('region', { name: 'Usage', exact: true }).screenshot({ path: join(ARTIFACTS_DIR, 'customer-usage-charts.png') });
  });

  it('draws the charts under the page’s own Content-Security-Policy (no inline style or script)', async () => {
    const session = await signedInUser(platform, 'usage-csp@example.test', 'SUPPORT');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    await context.addCookies([{ name: 'bp_session', value: session.cookie!, url: platform.baseUrl }]);
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) refused.push(message.text());
    });
    await visit(page, `/customers/${customerId}`, /^Customer/);
    const bars = page.getByRole('figure', { name: /every billing period/ }).locator('.recharts-bar-rectangle path');
    await bars.first().waitFor();
    expect(await bars.count()).toBe(2);
    expect(refused).toEqual([]);
  });

  it('a support user sees the usage but no upcoming invoice, which needs invoices:preview', async () => {
    const support = await signedIn('usage-support@example.test', 'SUPPORT');
    await visit(support, `/customers/${customerId}`, /^Customer/);
    expect(await tableRows(support, `usage-${subscriptionId}-${meter.id}-periods-table`, 2)).toHaveLength(2);
    await support.getByRole('heading', { name: 'Balance' }).waitFor();
    expect(await support.getByRole('heading', { name: 'Upcoming invoices' }).count()).toBe(0);
    await expectAccessible(support, 'customer-usage-support');
  });

  it('a customer no subscription bills for usage shows the last 30 days of the meters that measured some', async () => {
    const other = await s.customer();
    const now = Date.now();
    await ingestNow([0, 1].map((index) => ({ event_id: `recent-${index}`, customer_id: other, timestamp: new Date(now - index * 1000).toISOString() })));
    await visit(admin, `/customers/${other}`, /^Customer/);
    await admin.getByText('No subscription bills usage; the last 30 days of the meters that measured some:').waitFor();
    const rows = await tableRows(admin, `usage-recent-${meter.id}-table`, 30);
    const today = Math.floor(now / DAY) * DAY;
    expect(rows.at(-1)).toEqual([span(today, today + DAY), '2']);
    expect(rows.slice(0, -1).every((row) => row[1] === '0')).toBe(true);
    await admin.getByText('No subscription will bill: nothing upcoming.').waitFor();
    await expectAccessible(admin, 'customer-usage-recent');
  });

  it('archiving the meter a live subscription bills is refused on the meter page, saying why', async () => {
    await visit(admin, `/meters/${meter.id}`, 'Meter API requests');
    await admin.getByRole('button', { name: 'Archive meter' }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Archive meter' }).click();
    await admin.getByRole('alertdialog').getByRole('alert').filter({ hasText: 'METER_IN_USE' }).waitFor();
    expect((await s.ok('meters/get', { id: meter.id })).status).toBe('ACTIVE');
  });
});
