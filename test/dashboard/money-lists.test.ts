import { Readable } from 'node:stream';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { fileStorageFromEnv } from '../../services/files/storage-from-env';
import { newId } from '../../domain/ids';
import { createLegalEntity } from '../../scripts/operator/legal-entities';
import { inviteFirstAdmin } from '../../services/dashboard/first-admin';
import { storedSettlement } from '../settlements/fixtures';
import { launchBrowser } from '../support/browser';
import { usePlatform } from '../support/platform';
import { checkPage } from './page-check';

/**
 * Issue 19: the pages built on settlements/list, the monthly statement file links and the
 * customers/list name filter, in Debian's Chromium against the real platform. The tests run in
 * order: the admin signed in by the first one uses the others.
 */
const platform = usePlatform();
const ADMIN_PASSWORD = 'first admin passphrase';

let browser: Browser;
let context: BrowserContext;
let admin: Page;
const url = (path: string) => `${platform.baseUrl}/dashboard${path}`;

async function heading(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 15_000 });
}

async function expectAccessible(page: Page, name: string): Promise<void> {
  expect(await checkPage(page, name)).toEqual([]);
}

/** The first column's text of each row of the table captioned `caption`. */
async function column(page: Page, caption: string, index: number): Promise<string[]> {
  const table = page.getByRole('table', { name: caption });
  return table.locator('tbody tr').evaluateAll((rows, i) => rows.map((row) => (row as any).cells[i].textContent as string), index);
}

/** Waits up to 15 s for `read` to give `expected` (the page fetches after a click), then compares once more. */
async function settles<T>(read: () => Promise<T>, expected: T): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && JSON.stringify(await read()) !== JSON.stringify(expected)) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(await read()).toEqual(expected);
}

/** Downloads `href` from inside the page, as a click on the link would, without a save dialog. */
async function download(page: Page, href: string): Promise<{ status: number; disposition: string | null; body: string }> {
  return page.evaluate(async (link) => {
    const response = await fetch(link);
    return { status: response.status, disposition: response.headers.get('content-disposition'), body: await response.text() };
  }, href);
}

beforeAll(async () => {
  browser = await launchBrowser();
  // axe-core goes in as an inline script, which the dashboard's CSP refuses: the tests lift it.
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  admin = await context.newPage();
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('money lists and customer search in the dashboard', () => {
  it('signs the admin in from the printed link', async () => {
    const invitation = await inviteFirstAdmin(platform.db, new Date());
    await admin.goto(invitation!.url);
    await heading(admin, 'Set your password');
    await admin.keyboard.press('Tab');
    await admin.keyboard.type(ADMIN_PASSWORD);
    await admin.keyboard.press('Tab');
    await admin.keyboard.type(ADMIN_PASSWORD);
    await admin.keyboard.press('Enter');
    await heading(admin, 'Overview');
  });

  it('Customers: searches by name (any part of it from its start), by e-mail and by id', async () => {
    const create = async (body: Record<string, unknown>) => {
      const res = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', ...body });
      expect(res.status).toBe(200);
      return res.body.id as string;
    };
    await create({ email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' });
    await create({ email: 'adam@example.org', first_name: 'Adam', last_name: 'Smith' });
    await create({ type: 'BUSINESS', email: 'billing@adaptive.example', business_details: { name: 'Adaptive Systems' } });
    const grace = await create({ email: 'grace@navy.example', first_name: 'Grace', last_name: 'Hopper' });

    await admin.goto(url('/customers'));
    await heading(admin, 'Customers');
    const search = async (text: string, by?: string) => {
      if (by) await admin.getByLabel('Search by').selectOption({ label: by });
      await admin.getByLabel('Search text').fill(text);
      await admin.getByRole('button', { name: 'Search' }).click();
    };
    const names = async (expected: string[]) => {
      await settles(() => column(admin, 'Customers', 0), expected);
    };
    await names(['Grace Hopper', 'Adaptive Systems', 'Adam Smith', 'Ada Lovelace']);

    // "E-mail, name or customer id" reads the text: a name…
    await search('ada');
    await names(['Adaptive Systems', 'Adam Smith', 'Ada Lovelace']);
    await expectAccessible(admin, 'money-lists-customers-by-name');
    // …an e-mail…
    await search('@navy');
    await names(['Grace Hopper']);
    // …or an id, which opens the customer.
    await search(grace);
    await heading(admin, 'Customer Grace Hopper');

    await admin.goto(url('/customers'));
    await heading(admin, 'Customers');
    await search('LOVE', 'Name (starts with)');
    await names(['Ada Lovelace']);
    await search('example.org', 'E-mail (contains)');
    await names(['Adam Smith']);
    await search('zzz', 'Name (starts with)');
    await admin.getByText('No customer matches.').waitFor();
    await search(grace, 'Customer id');
    await heading(admin, 'Customer Grace Hopper');
  });

  it('Settlements: a paged list with filters and file links that download', async () => {
    const entity = await createLegalEntity(platform.db, { accountId: platform.accountId, name: 'Acme GmbH', country: 'DEU' });
    const ids: string[] = [];
    for (let n = 0; n < 22; n++) {
      const day = `2026-03-${String(n + 1).padStart(2, '0')}`;
      ids.push(await storedSettlement(platform.db, { accountId: platform.accountId, legalEntityId: entity.id, currency: n === 5 ? 'USD' : 'EUR', day, amount: 1_000 + n, stored: n !== 21 }));
    }
    const newest = [...ids].reverse();

    await admin.getByRole('link', { name: 'Settlements' }).click();
    await heading(admin, 'Settlements');
    const idColumn = 6;
    await settles(() => column(admin, 'Settlements', idColumn), newest.slice(0, 20));
    // The newest one's files are still PROCESSING: no link.
    const first = admin.getByRole('table', { name: 'Settlements' }).locator('tbody tr').first();
    await first.getByText('SETTLEMENT: Processing', { exact: true }).waitFor();
    expect(await first.getByRole('link').count()).toBe(0);
    await expectAccessible(admin, 'money-lists-settlements');

    await admin.getByRole('button', { name: 'Next page' }).click();
    await settles(() => column(admin, 'Settlements', idColumn), newest.slice(20));
    await admin.getByText('Page 2').waitFor();

    const link = admin.getByRole('link', { name: `SETTLEMENT (CSV) of ${ids[0]}` });
    const downloaded = await download(admin, (await link.getAttribute('href'))!);
    expect(downloaded).toEqual({ status: 200, disposition: `attachment; filename="${ids[0]}-settlement.csv"`, body: `record_type,settlement_id\r\nSETTLEMENT,${ids[0]}\r\n` });

    await admin.getByLabel('Currency').fill('usd');
    await admin.getByRole('button', { name: 'Filter' }).click();
    await settles(() => column(admin, 'Settlements', idColumn), [ids[5]]);
    expect(await column(admin, 'Settlements', 1)).toEqual(['$10.05']);

    await admin.getByLabel('Currency').fill('');
    await admin.getByLabel('Settled from').fill('2026-03-10');
    await admin.getByLabel('to', { exact: true }).fill('2026-03-12');
    await admin.getByRole('button', { name: 'Filter' }).click();
    await settles(() => column(admin, 'Settlements', idColumn), [ids[11], ids[10], ids[9]]);
  });

  it('Monthly statements: each uploaded statement’s CSV is a link that downloads', async () => {
    const entity = await createLegalEntity(platform.db, { accountId: platform.accountId, name: 'Acme SAS', country: 'FRA' });
    const now = new Date();
    const uploaded = newId('monthlyStatement');
    const pending = newId('monthlyStatement');
    const key = `monthly-statements/${uploaded}/statement.csv`;
    await fileStorageFromEnv().write(key, Readable.from([`record_type,statement_id\r\nTOTAL,${uploaded}\r\n`]));
    const period = { periodFrom: new Date('2026-02-01T00:00:00Z'), periodTo: new Date('2026-02-28T00:00:00Z') };
    await platform.db.monthlyStatement.createMany({
      data: [
        { id: uploaded, accountId: platform.accountId, legalEntityId: entity.id, provider: 'sandbox-alpha', currency: 'EUR', ...period, uploadedAt: now, storageKey: key, createdAt: now, updatedAt: now },
        { id: pending, accountId: platform.accountId, legalEntityId: entity.id, provider: 'sandbox-beta', currency: 'EUR', ...period, createdAt: now, updatedAt: now },
      ],
    });

    await admin.getByRole('link', { name: 'Monthly statements' }).click();
    await heading(admin, 'Monthly statements');
    const table = admin.getByRole('table', { name: 'Monthly statements' });
    await table.getByText('MONTHLY_STATEMENT: Processing', { exact: true }).waitFor({ timeout: 15_000 });
    const link = table.getByRole('link', { name: `MONTHLY_STATEMENT (CSV) of ${uploaded}` });
    expect(await table.getByRole('link').count()).toBe(1);
    await expectAccessible(admin, 'money-lists-monthly-statements');

    const downloaded = await download(admin, (await link.getAttribute('href'))!);
    expect(downloaded).toEqual({ status: 200, disposition: `attachment; filename="${uploaded}-statement.csv"`, body: `record_type,statement_id\r\nTOTAL,${uploaded}\r\n` });
  });
});
