import type { Page } from 'playwright-core';
import { merchant } from '../invoices-payments/fixtures';
import { usePlatform } from '../support/platform';
import { focused, heading, tabTo, usePortalBrowser } from './browser-support';

/**
 * Issue 43: the invoices page in Chromium against the real platform: invoices and credit notes
 * newest first with their PDFs, paying an open invoice with the keyboard alone (the default card
 * chosen), and a decline said in words. The tests run in order in one customer's session.
 */
const platform = usePlatform();
const m = merchant(platform);
const browser = usePortalBrowser(() => platform, 'invoices');

let page: Page;
let customerId: string;
const cards: Record<'visa' | 'mastercard' | 'declining', string> = { visa: '', mastercard: '', declining: '' };
const invoices: Record<'paidEarlier' | 'small' | 'large', { id: string }> = {} as never;

async function expectAccessible(name: string): Promise<void> {
  expect(await browser.check(page, name)).toEqual([]);
}

const invoiceRow = (id: string) => page.getByRole('table', { name: 'Invoices' }).getByRole('row').filter({ has: page.getByRole('rowheader', { name: id }) });

afterAll(() => expect(browser.pageErrors).toEqual([]));

describe('the invoices page', () => {
  it('1. lists invoices and credit notes newest first, each with its PDF (reached with the keyboard from the first page)', async () => {
    customerId = await m.customer();
    cards.visa = await m.card(customerId, '4242424242424242');
    cards.mastercard = await m.card(customerId, '5555555555554444');
    cards.declining = await m.card(customerId, '4000000000000002');
    await m.setDefaultInstrument(customerId, cards.visa);
    invoices.paidEarlier = await m.openInvoice(customerId, { amount: 2_000, collection_method: 'SEND_INVOICE' });
    await m.ok('invoices/pay', { id: invoices.paidEarlier.id, payment_instrument_id: cards.visa });
    const note = await m.ok('credit-notes/create', { invoice_id: invoices.paidEarlier.id, amount: 500, reason: 'PRODUCT_UNSATISFACTORY', balance_credit_amount: 500 });
    invoices.small = await m.openInvoice(customerId, { amount: 1_200, collection_method: 'SEND_INVOICE' });
    invoices.large = await m.openInvoice(customerId, { amount: 4_200, collection_method: 'SEND_INVOICE' });

    page = await browser.openPortal(customerId);
    await heading(page, 'Your subscriptions');
    await page.getByText('You have no subscriptions.').waitFor();
    await tabTo(page, 'Invoices');
    await page.keyboard.press('Enter');
    await heading(page, 'Invoices and credit notes');
    expect(await focused(page)).toContain('Invoices and credit notes||H1');
    expect(new URL(page.url()).pathname).toBe('/portal/invoices');

    const table = page.getByRole('table', { name: 'Invoices' });
    await table.getByRole('rowheader').first().waitFor();
    expect(await table.getByRole('rowheader').allTextContents()).toEqual([invoices.large.id, invoices.small.id, invoices.paidEarlier.id]);
    await invoiceRow(invoices.large.id).getByText('Open', { exact: true }).waitFor();
    await invoiceRow(invoices.paidEarlier.id).getByText('Paid', { exact: true }).waitFor();
    expect(await invoiceRow(invoices.paidEarlier.id).getByRole('button').count()).toBe(0);
    const pdf = await invoiceRow(invoices.large.id).getByRole('link', { name: `Invoice ${invoices.large.id} as PDF` }).getAttribute('href');
    const file = await fetch(pdf!);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toContain('application/pdf');

    const notes = page.getByRole('table', { name: 'Credit notes' });
    await notes.getByRole('row', { name: new RegExp(`^${note.number} .*${invoices.paidEarlier.id} Product unsatisfactory Issued €5\\.00`) }).waitFor();
    await notes.getByRole('link', { name: `Credit note ${note.number} as PDF` }).waitFor();
    await expectAccessible('invoices');
  });

  it('2. pays an open invoice with the keyboard alone, the default card chosen to begin with', async () => {
    await tabTo(page, `Pay invoice ${invoices.large.id}`);
    await page.keyboard.press('Enter');
    expect(await focused(page)).toContain(`Pay invoice ${invoices.large.id}||H3`);
    const select = page.getByLabel('Payment method');
    await select.waitFor();
    expect(await select.inputValue()).toBe(cards.visa);
    expect(await select.locator('option:checked').textContent()).toMatch(/^Visa ending in 4242, \d\d\/\d{4} \(default\)$/);
    await expectAccessible('pay-panel');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatch(/SELECT$/);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toContain('Pay €42.00');
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Payment received. Thank you!' }).waitFor();
    await invoiceRow(invoices.large.id).getByText('Paid', { exact: true }).waitFor();

    const paid = await m.ok('invoices/get', { id: invoices.large.id });
    expect(paid).toMatchObject({ status: 'PAID', amount_due: 0 });
    const payments = await platform.db.payment.findMany({ where: { invoiceId: invoices.large.id } });
    expect(payments.map((payment) => [payment.status, payment.instrumentId])).toEqual([['SUCCEEDED', cards.visa]]);
    const audit = await platform.db.dashboardAuditEntry.findMany({ where: { accountId: platform.accountId, userId: customerId } });
    expect(audit.map((entry) => [entry.actorType, entry.action, entry.objectId])).toEqual([['CUSTOMER', 'invoices/pay', invoices.large.id]]);
    await expectAccessible('paid');
    await page.getByRole('button', { name: 'Close' }).click();
  });

  it('3. says a decline in words and leaves the invoice open; the next attempt is a new payment', async () => {
    // The credit note of test 1 went to the customer's balance, which the next invoice took: €5.00 of its €12.00.
    await invoiceRow(invoices.small.id).getByRole('cell', { name: '€7.00' }).waitFor();
    await invoiceRow(invoices.small.id).getByRole('button', { name: `Pay invoice ${invoices.small.id}` }).click();
    await page.getByLabel('Payment method').selectOption(cards.declining);
    await page.getByRole('button', { name: 'Pay €7.00' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'The payment was declined.' });
    await alert.getByText('The card issuer declined the payment. Use another card or contact your bank.').waitFor();
    await invoiceRow(invoices.small.id).getByText('Open', { exact: true }).waitFor();
    await expectAccessible('declined');

    // The same card again: the platform decided the first attempt, so this is a new one (a new Idempotency-Key), declined again.
    await Promise.all([
      page.waitForResponse((response) => response.url().endsWith('/portal/api/invoices/pay')),
      page.getByRole('button', { name: 'Pay €7.00' }).click(),
    ]);
    await alert.waitFor();
    expect(await platform.db.payment.count({ where: { invoiceId: invoices.small.id } })).toBe(2);

    await page.getByLabel('Payment method').selectOption(cards.mastercard);
    await page.getByRole('button', { name: 'Pay €7.00' }).click();
    await page.getByRole('status').filter({ hasText: 'Payment received. Thank you!' }).waitFor();
    await invoiceRow(invoices.small.id).getByText('Paid', { exact: true }).waitFor();
    expect((await m.ok('invoices/get', { id: invoices.small.id })).status).toBe('PAID');
  });
});
