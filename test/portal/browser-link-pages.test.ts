import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { merchant } from '../invoices-payments/fixtures';
import { usePlatform } from '../support/platform';
import { heading, usePortalBrowser } from './browser-support';
import { portalLink } from './portal-client';

/**
 * Issue 43, isolation as a customer's browser meets it: a link opened twice, an expired link, a
 * link for a customer no longer active and a made-up one each end on a page saying so in words,
 * naming no customer; a session that went idle says it ended and offers the way back; signing out
 * goes back to the merchant; another customer's invoice is refused as one that does not exist.
 */
const platform = usePlatform();
const m = merchant(platform);
const browser = usePortalBrowser(() => platform, 'link-pages');

let merchantSite: Server;
let returnUrl: string;

beforeAll(async () => {
  // The merchant's own page the portal sends the customer back to (http is allowed to localhost).
  merchantSite = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Acme</title><h1>Your Acme account</h1>'));
  await new Promise<void>((resolve) => merchantSite.listen(0, '127.0.0.1', resolve));
  returnUrl = `http://localhost:${(merchantSite.address() as AddressInfo).port}/account`;
});

afterAll(async () => {
  await new Promise((resolve) => merchantSite.close(resolve));
  expect(browser.pageErrors).toEqual([]);
});

async function refusedPage(url: string, reasonText: string, name: string, locale?: string): Promise<Page> {
  const page = await browser.newPage(locale ? { locale } : {});
  await page.goto(url);
  await heading(page, locale?.startsWith('de') ? 'Dieser Link kann nicht geöffnet werden' : 'This link cannot be opened');
  await page.getByText(reasonText).waitFor();
  expect(await page.getByText('payer@example.com').count()).toBe(0);
  expect(await browser.check(page, name)).toEqual([]);
  return page;
}

describe('links that do not open the portal', () => {
  it('1. a link opened before, expired, for a customer no longer active, or made up: each said in words', async () => {
    const customerId = await m.customer();
    const used = await portalLink(platform, customerId);
    const first = await browser.newPage();
    await first.goto(used.url);
    await heading(first, 'Your subscriptions');
    const again = await refusedPage(used.url, 'This link has already been used. Each link opens the billing portal once.', 'used');
    expect(new URL(again.url()).pathname + new URL(again.url()).search).toBe('/portal/link-refused?reason=USED');

    const expired = await portalLink(platform, customerId);
    await platform.db.customerPortalSession.update({ where: { id: expired.id }, data: { linkExpiresAt: new Date(Date.now() - 1_000) } });
    await refusedPage(expired.url, 'This link has expired. Links are valid for 10 minutes.', 'expired');

    const removed = await portalLink(platform, customerId);
    await m.ok('customers/update', { id: customerId, status: 'INACTIVE' });
    await refusedPage(removed.url, 'The account this link was made for is no longer active.', 'customer-removed');

    await refusedPage(`${platform.baseUrl}/portal/open/made-up-token`, 'This link is not valid. Check that you copied it completely.', 'invalid');
    await refusedPage(`${platform.baseUrl}/portal/open/made-up-token`, 'Dieser Link ist ungültig. Prüfen Sie, ob Sie ihn vollständig kopiert haben.', 'invalid-de', 'de-DE');
  });
});

describe('a portal session', () => {
  let page: Page;
  let customerId: string;

  it('2. says it ended once it went idle, and offers the way back to the merchant', async () => {
    customerId = await m.customer();
    const link = await portalLink(platform, customerId, { return_url: returnUrl });
    page = await browser.newPage();
    await page.goto(link.url);
    await heading(page, 'Your subscriptions');
    // 31 minutes without a request: the next one finds the session over (docs/portal.md).
    await platform.db.customerPortalSession.update({ where: { id: link.id }, data: { lastSeenAt: new Date(Date.now() - 31 * 60_000) } });
    await page.getByRole('link', { name: 'Invoices' }).click();
    await heading(page, 'Your session has ended');
    expect(await page.getByRole('navigation').count()).toBe(0);
    await page.getByText('To continue, open the billing portal again from Test account.').waitFor();
    expect(await browser.check(page, 'session-ended')).toEqual([]);
    await page.getByRole('main').getByRole('link', { name: 'Back to Test account' }).click();
    await heading(page, 'Your Acme account');
  });

  it("3. refuses another customer's invoice as one that does not exist, and signs out back to the merchant", async () => {
    const other = await m.customer();
    const theirs = await m.openInvoice(other, { amount: 5_000, collection_method: 'SEND_INVOICE' });
    const mine = await m.card(customerId, '4242424242424242');
    const link = await portalLink(platform, customerId, { return_url: returnUrl });
    page = await browser.newPage();
    await page.goto(link.url);
    await heading(page, 'Your subscriptions');
    // What a customer guessing ids could send from the portal's own page, with its CSRF token.
    const answer = await page.evaluate(
      async ({ invoiceId, instrumentId }) => {
        const me = (await (await fetch('/portal/api/session/me', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as { csrf_token: string };
        const response = await fetch('/portal/api/invoices/pay', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrf_token },
          body: JSON.stringify({ id: invoiceId, payment_instrument_id: instrumentId }),
        });
        return { status: response.status, body: await response.json() };
      },
      { invoiceId: theirs.id, instrumentId: mine },
    );
    expect(answer).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
    expect((await m.ok('invoices/get', { id: theirs.id })).status).toBe('OPEN');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await heading(page, 'Your Acme account');
    expect(page.url()).toBe(returnUrl);
    expect((await platform.db.customerPortalSession.findUniqueOrThrow({ where: { id: link.id } })).endedAt).not.toBeNull();
    await page.goto(`${platform.baseUrl}/portal/`);
    await heading(page, 'Your session has ended');
  });
});
