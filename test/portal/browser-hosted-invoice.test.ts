import type { Page } from 'playwright-core';
import { merchant } from '../invoices-payments/fixtures';
import { usePlatform } from '../support/platform';
import {
  FIRST_PAGE_JS_BUDGET_BYTES,
  focused,
  heading,
  INTERACTIVE_LIMIT_ON_SHARED_MACHINE_MS,
  measureFirstPage,
  tabTo,
  usePortalBrowser,
} from './browser-support';

/**
 * Issue 43: an invoice's `hosted_invoice_url` in Chromium, no session: the invoice with its lines,
 * totals and PDF, paid with the sandbox card form by keyboard alone; a decline in words; a wrong
 * link refused without telling which invoices exist; the browser's language spoken. (Stripe
 * Elements on this page: stripe-elements.test.ts.)
 */
const platform = usePlatform();
const m = merchant(platform);
const browser = usePortalBrowser(() => platform, 'hosted-invoice');

let page: Page;

async function expectAccessible(name: string): Promise<void> {
  expect(await browser.check(page, name)).toEqual([]);
}

afterAll(() => expect(browser.pageErrors).toEqual([]));

describe('the hosted invoice page', () => {
  it('1. opens within the budgets, shows the invoice, its lines, totals and PDF, and is paid with the keyboard alone', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId, { amount: 4_200, collection_method: 'SEND_INVOICE' });
    expect(invoice.hosted_invoice_url).toMatch(new RegExp(`^${platform.baseUrl}/portal/invoices/${invoice.id}\\.`));

    page = await browser.newPage();
    const first = await measureFirstPage(
      page,
      async () => {
        await page.goto(invoice.hosted_invoice_url);
      },
      () => heading(page, `Invoice ${invoice.id}`),
    );
    browser.timings.hostedInteractiveMs = first.interactiveMs;
    browser.timings.hostedJsGzipBytes = first.jsGzipBytes;
    expect(first.jsGzipBytes).toBeLessThanOrEqual(FIRST_PAGE_JS_BUDGET_BYTES);
    // The budget is 1 s (INTERACTIVE_BUDGET_MS) on an idle machine; this one runs other suites at once.
    expect(first.interactiveMs).toBeLessThan(INTERACTIVE_LIMIT_ON_SHARED_MACHINE_MS);

    await page.getByText('From Test account').waitFor();
    await page.getByText('Open', { exact: true }).waitFor();
    await page.getByText('payer@example.com').waitFor();
    const lines = page.getByRole('table', { name: 'Invoice lines' });
    await lines.getByRole('row', { name: 'Consulting 1 €42.00 €42.00' }).waitFor();
    await lines.getByRole('row', { name: 'Total €42.00' }).waitFor();
    const pdf = await page.getByRole('link', { name: 'Download the invoice as PDF' }).getAttribute('href');
    const file = await fetch(pdf!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('application/pdf');
    // No portal session: no sections, no sign-out.
    expect(await page.getByRole('navigation').count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(0);
    await expectAccessible('open');

    // The card number, the expiry left as offered, then the button.
    await tabTo(page, 'Card number');
    await page.keyboard.type('4242 4242 4242 4242');
    await tabTo(page, 'Pay €42.00');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Payment received. Thank you!' }).waitFor();
    await page.getByText(/^This invoice was paid on .*\. Thank you!$/).waitFor();
    await page.getByText('Paid', { exact: true }).waitFor();
    expect(await page.getByLabel('Card number').count()).toBe(0);
    expect(await m.ok('invoices/get', { id: invoice.id })).toMatchObject({ status: 'PAID', amount_due: 0 });
    const audit = await platform.db.dashboardAuditEntry.findMany({ where: { accountId: platform.accountId, userId: customerId }, orderBy: { id: 'asc' } });
    expect(audit.map((entry) => [entry.actorType, entry.action])).toEqual([
      ['CUSTOMER', 'payment-instruments/tokenize'],
      ['CUSTOMER', 'invoices/pay'],
    ]);
    // The card is the customer's now, not their default.
    expect((await m.ok('customers/get', { id: customerId })).configuration?.default_payment_instrument_id).toBeUndefined();
    await expectAccessible('paid');
  });

  it('2. says a decline in words and keeps the invoice payable', async () => {
    const invoice = await m.openInvoice(await m.customer(), { amount: 1_500, collection_method: 'SEND_INVOICE' });
    page = await browser.newPage();
    await page.goto(invoice.hosted_invoice_url);
    await heading(page, `Invoice ${invoice.id}`);
    await page.getByLabel('Card number').fill('4000 0000 0000 0002');
    await page.getByLabel('Name on card (optional)').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Pay €15.00' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The payment was declined.' })
      .getByText('The card issuer declined the payment. Use another card or contact your bank.')
      .waitFor();
    expect(await page.getByRole('button', { name: 'Pay €15.00' }).isEnabled()).toBe(true);
    expect((await m.ok('invoices/get', { id: invoice.id })).status).toBe('OPEN');
    await expectAccessible('declined');
  });

  it('3. answers a wrong link as an unknown one, naming nothing', async () => {
    const invoice = await m.openInvoice(await m.customer(), { amount: 900, collection_method: 'SEND_INVOICE' });
    const token = new URL(invoice.hosted_invoice_url).pathname.split('/').at(-1)!;
    page = await browser.newPage();
    await page.goto(`${platform.baseUrl}/portal/invoices/${token.slice(0, -2)}xx`);
    await heading(page, 'Invoice not found');
    expect(await focused(page)).toContain('Invoice not found');
    await page.getByRole('alert').filter({ hasText: 'This invoice link is not valid.' }).waitFor();
    expect(await page.getByText(invoice.id).count()).toBe(0);
    await expectAccessible('not-found');
  });

  it("4. speaks the browser's language: German words and amounts", async () => {
    const invoice = await m.openInvoice(await m.customer(), { amount: 123_456, collection_method: 'SEND_INVOICE' });
    page = await browser.newPage({ locale: 'de-DE' });
    await page.goto(invoice.hosted_invoice_url);
    await heading(page, `Rechnung ${invoice.id}`);
    await page.getByText('Von Test account').waitFor();
    await page.getByRole('table', { name: 'Rechnungspositionen' }).getByRole('row', { name: 'Gesamtbetrag 1.234,56 €' }).waitFor();
    await page.getByRole('button', { name: '1.234,56 € bezahlen' }).waitFor();
    await expectAccessible('open-de');
  });
});
