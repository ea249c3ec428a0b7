import type { Browser, BrowserContext, Page } from 'playwright-core';
import { signedInUser } from '../dashboard-api/browser-session';
import { merchant } from '../invoices-payments/fixtures';
import { launchBrowser } from '../support/browser';
import { usePlatform } from '../support/platform';
import { checkPage } from './page-check';

/**
 * Issue 44, item 9: the dashboard's routes under React Router keep what the hand-written router
 * gave: deep links under /dashboard/, the redirect from the base path, history, the current
 * section marked, focus on the new page's heading, a page a role may not open said "Not found".
 */
const platform = usePlatform();

let browser: Browser;
let context: BrowserContext;
let page: Page;

const url = (path: string) => `${platform.baseUrl}/dashboard${path}`;
const h1 = (name: string | RegExp) => page.getByRole('heading', { level: 1, name });
const focusedHeading = () => page.evaluate(() => ((globalThis as any).document.activeElement as { tagName: string; textContent: string } | null)?.tagName === 'H1' ? (globalThis as any).document.activeElement.textContent : null);

beforeAll(async () => {
  browser = await launchBrowser();
  const session = await signedInUser(platform, 'routing-support@example.test', 'SUPPORT');
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  await context.addCookies([{ name: 'bp_session', value: session.cookie!, url: platform.baseUrl }]);
  page = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('dashboard routing', () => {
  it('opens a deep link, moves through links and history with focus on each heading, and marks the section', async () => {
    const m = merchant(platform);
    const invoice = await m.openInvoice(await m.customer(), { amount: 1_200 });

    // A deep link loads straight into its page (the API answers index.html, the router reads the URL).
    await page.goto(url(`/invoices/${invoice.id}`));
    await h1(`Invoice ${invoice.id}`).waitFor({ timeout: 15_000 });
    expect(await focusedHeading()).toBe(`Invoice ${invoice.id}`);
    const sections = page.getByRole('navigation', { name: 'Sections' });
    expect(await sections.getByRole('link', { name: 'Invoices' }).getAttribute('aria-current')).toBe('page');
    expect(await sections.getByRole('link', { name: 'Customers' }).getAttribute('aria-current')).toBeNull();
    expect(await sections.getByRole('link', { name: 'Invoices' }).getAttribute('href')).toBe('/dashboard/invoices');
    await expect(checkPage(page, 'routing-deep-link')).resolves.toEqual([]);

    // A link navigates inside the app: no new document, focus on the new heading.
    await page.evaluate(() => ((globalThis as any).window.stayedLoaded = true));
    await page.getByRole('link', { name: '← All invoices' }).click();
    await h1('Invoices').waitFor();
    expect(page.url()).toBe(url('/invoices'));
    expect(await focusedHeading()).toBe('Invoices');
    expect(await page.evaluate(() => (globalThis as any).window.stayedLoaded)).toBe(true);

    await page.goBack();
    await h1(`Invoice ${invoice.id}`).waitFor();
    await page.goForward();
    await h1('Invoices').waitFor();
    expect(await page.evaluate(() => (globalThis as any).window.stayedLoaded)).toBe(true);
  });

  it('sends the base path to the home page and says "Not found" for an unknown path and for a page the role does not open', async () => {
    await page.goto(`${platform.baseUrl}/dashboard/`);
    await h1('Overview').waitFor({ timeout: 15_000 });
    expect(page.url()).toBe(url('/overview'));

    for (const path of ['/no-such-page', '/team']) {
      await page.goto(url(path));
      await h1('Not found').waitFor({ timeout: 15_000 });
    }
  });
});
