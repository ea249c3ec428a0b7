import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { DashboardRole } from '../../domain/dashboard-roles';
import { minorUnitsOf } from '../../dashboard/src/components/minorUnits';
import { creditNoteMerchant } from '../credit-notes/fixtures';
import { signedInUser } from '../dashboard-api/browser-session';
import { launchBrowser } from '../support/browser';
import { usePlatform } from '../support/platform';
import { checkPage } from './page-check';

/**
 * Issue 19: the customer page shows the balance per currency and its ledger, the invoice page
 * its credit notes; only an admin adjusts the balance, issues (after a preview) and voids notes.
 * In Debian's Chromium against the real platform; the tests run in order over one customer.
 */
const platform = usePlatform();

let browser: Browser;
const contexts: BrowserContext[] = [];
let admin: Page;
let support: Page;
let m: ReturnType<typeof creditNoteMerchant>;
let customerId: string;
let invoiceId: string;

const url = (path: string) => `${platform.baseUrl}/dashboard${path}`;

async function signedIn(email: string, role: DashboardRole): Promise<Page> {
  const session = await signedInUser(platform, email, role);
  // axe-core goes in as an inline script, which the dashboard's CSP refuses: the test lifts it.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  contexts.push(context);
  await context.addCookies([{ name: 'bp_session', value: session.cookie!, url: platform.baseUrl }]);
  return context.newPage();
}

async function visit(page: Page, path: string, title: RegExp): Promise<void> {
  await page.goto(url(path));
  await page.getByRole('heading', { level: 1, name: title }).waitFor({ timeout: 15_000 });
}

async function expectAccessible(page: Page, name: string): Promise<void> {
  expect(await checkPage(page, name)).toEqual([]);
}

/** The rows of the table captioned `caption`, each as its cells' texts, once it has `count` rows. */
async function rows(page: Page, caption: string, count: number): Promise<string[][]> {
  const table = page.getByRole('table', { name: caption });
  const deadline = Date.now() + 15_000;
  while ((await table.locator('tbody tr').count()) !== count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return Promise.all((await table.locator('tbody tr').all()).map((row) => row.locator('td').allTextContents()));
}

const balanceRows = (id: string) => platform.db.customerBalanceTransaction.findMany({ where: { customerId: id }, orderBy: { sequence: 'asc' } });

beforeAll(async () => {
  browser = await launchBrowser();
  m = creditNoteMerchant(platform);
  const paid = await m.paidInvoice(10_000);
  customerId = paid.customerId;
  invoiceId = paid.invoice.id;
  // 20 credits of 0.75 EUR: one full page of the ledger, so the admin's adjustment pushes the oldest to page 2.
  for (let i = 1; i <= 20; i++) await m.ok('customer-balance-transactions/create', { customer_id: customerId, currency: 'EUR', amount: -75, description: `Goodwill ${i}` });
  admin = await signedIn('money-admin@example.test', 'MERCHANT_ADMIN');
  support = await signedIn('money-support@example.test', 'SUPPORT');
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('customer balance and credit notes in the dashboard', () => {
  it('an admin sees the balance in words and the paged ledger, adjusts it exactly in minor units and sees it change', async () => {
    await visit(admin, `/customers/${customerId}`, /^Customer /);
    const balances = admin.getByTestId('customer-balances');
    await balances.getByText('EUR: €15.00 credit the merchant owes the customer').waitFor();
    const firstPage = await rows(admin, 'Balance transactions', 20);
    expect(firstPage[0]).toEqual(['Adjustment', '-€0.75', '-€15.00', '—', 'Goodwill 20', expect.stringMatching(/ UTC$/)]);

    // A decimal with more digits than EUR has is refused on the page, nothing sent.
    await admin.getByLabel('Direction').selectOption('DEBIT');
    await admin.getByLabel('Amount (e.g. 15.00)').fill('2.505');
    await admin.getByLabel('Currency').fill('EUR');
    await admin.getByLabel('Description').fill('Late fee');
    await admin.getByRole('button', { name: 'Adjust balance' }).click();
    await admin.getByRole('alert').filter({ hasText: 'at most its number of decimals' }).waitFor();
    expect(await balanceRows(customerId)).toHaveLength(20);

    // Keyboard only: Enter in the amount field submits the form.
    await admin.getByLabel('Amount (e.g. 15.00)').fill('2.5');
    await admin.getByLabel('Amount (e.g. 15.00)').press('Enter');
    await balances.getByText('EUR: €12.50 credit the merchant owes the customer').waitFor();
    const stored = await balanceRows(customerId);
    expect(stored.at(-1)).toMatchObject({ type: 'ADJUSTMENT', amount: 250, endingBalance: -1250, description: 'Late fee' });
    expect((await rows(admin, 'Balance transactions', 20))[0]!.slice(0, 5)).toEqual(['Adjustment', '€2.50', '-€12.50', '—', 'Late fee']);

    await admin.getByRole('navigation', { name: 'Balance transactions pages' }).getByRole('button', { name: 'Next page' }).click();
    expect((await rows(admin, 'Balance transactions', 1)).map((cells) => cells[4])).toEqual(['Goodwill 1']);
    await expectAccessible(admin, 'customer-money-admin-customer');
  });

  it('an admin previews a credit note on a paid invoice, issues it, sees it listed and voids it', async () => {
    await visit(admin, `/invoices/${invoiceId}`, /^Invoice /);
    await admin.getByText('No credit notes.').waitFor();
    await admin.getByLabel('Amount credited, tax included').fill('30.00');
    expect(await admin.getByLabel('Credit note reason').locator('option').allTextContents()).toEqual(['Duplicate', 'Fraudulent', 'Order change', 'Product unsatisfactory', 'Other']);
    await admin.getByLabel('Credit note reason').selectOption('PRODUCT_UNSATISFACTORY');
    await admin.getByLabel('Memo (on the PDF)').fill('Arrived late');
    await admin.getByLabel("Credited to the customer's balance").fill('20');
    await admin.getByLabel('Given back outside the platform').fill('10.00');
    await admin.getByRole('button', { name: 'Preview credit note' }).click();
    const preview = admin.getByTestId('credit-note-preview');
    await preview.waitFor();
    expect(await preview.textContent()).toBe(
      "Preview: total €30.00 (tax €0.00), off the amount due €0.00, refunded to the payment €0.00, credited to the customer's balance €20.00, given back outside the platform €10.00; the invoice then owes €0.00.",
    );
    expect(await platform.db.creditNote.count({ where: { invoiceId } })).toBe(0);
    await expectAccessible(admin, 'customer-money-admin-credit-note-preview');

    await admin.getByRole('button', { name: 'Issue credit note' }).click();
    const [issued] = await rows(admin, 'Credit notes of this invoice', 1);
    expect(issued!.slice(2, 4)).toEqual(['Issued', 'Product unsatisfactory: Arrived late']);
    expect(issued![1]).toContain("credited to the customer's balance €20.00");
    const note = await platform.db.creditNote.findFirstOrThrow({ where: { invoiceId } });
    expect(note).toMatchObject({ totalAmount: 3_000, balanceCreditAmount: 2_000, outOfBandAmount: 1_000, status: 'ISSUED' });
    expect((await balanceRows(customerId)).at(-1)).toMatchObject({ type: 'CREDIT_NOTE', amount: -2_000, endingBalance: -3_250 });

    // More than the invoice has left to credit: the API's refusal is shown, nothing issued.
    await admin.getByLabel('Amount credited, tax included').fill('80.00');
    await admin.getByLabel('Given back outside the platform').fill('80.00');
    await admin.getByRole('button', { name: 'Preview credit note' }).click();
    await admin.getByRole('alert').filter({ hasText: 'CREDIT_NOTE_EXCEEDS_INVOICE' }).waitFor();

    await admin.getByRole('button', { name: `Void credit note ${note.number}` }).click();
    await admin.getByRole('table', { name: 'Credit notes of this invoice' }).getByRole('cell', { name: 'Voided', exact: true }).waitFor();
    expect(await admin.getByRole('button', { name: /^Void credit note/ }).count()).toBe(0);
    expect((await balanceRows(customerId)).at(-1)).toMatchObject({ type: 'CREDIT_NOTE', amount: 2_000, endingBalance: -1_250 });

    // The whole invoice, every line in full, by keyboard: Space ticks the box, Enter previews.
    await admin.getByLabel('Whole invoice (every line in full)').focus();
    await admin.keyboard.press('Space');
    expect(await admin.getByLabel('Amount credited, tax included').isDisabled()).toBe(true);
    await admin.getByLabel('Given back outside the platform').fill('100');
    await admin.getByLabel('Given back outside the platform').press('Enter');
    await preview.filter({ hasText: /^Preview: total €100\.00 .* given back outside the platform €100\.00;/ }).waitFor();
    expect(await platform.db.creditNote.count({ where: { invoiceId } })).toBe(1);
    await expectAccessible(admin, 'customer-money-admin-invoice');
  });

  it('a SUPPORT user sees the balance, the ledger and the credit notes but no control that moves money', async () => {
    await m.ok('credit-notes/create', { invoice_id: invoiceId, amount: 500, reason: 'DUPLICATE', out_of_band_amount: 500 });

    await visit(support, `/customers/${customerId}`, /^Customer /);
    await support.getByTestId('customer-balances').getByText('EUR: €12.50 credit the merchant owes the customer').waitFor();
    const ledger = await rows(support, 'Balance transactions', 20);
    expect(ledger[0]!.slice(0, 4)).toEqual(['Credit note', '€20.00', '-€12.50', expect.stringMatching(new RegExp(`^Credit note cn_\\w+ of ${invoiceId}$`))]);
    expect(await support.getByRole('button', { name: 'Adjust balance' }).count()).toBe(0);
    expect(await support.getByLabel('Description').count()).toBe(0);
    await expectAccessible(support, 'customer-money-support-customer');

    await visit(support, `/invoices/${invoiceId}`, /^Invoice /);
    const notes = await rows(support, 'Credit notes of this invoice', 2);
    expect(notes.map((cells) => cells[2])).toEqual(['Issued', 'Voided']);
    expect(notes.map((cells) => cells[5])).toEqual(['—', '—']);
    expect(await support.getByRole('button', { name: /Void|Issue credit note|Preview credit note/ }).count()).toBe(0);
    expect(await support.getByLabel('Amount credited, tax included').count()).toBe(0);
    await expectAccessible(support, 'customer-money-support-invoice');
  });

  it('an adjustment whose answer never arrived, sent again as it was, is recorded once (one Idempotency-Key)', async () => {
    await visit(admin, `/customers/${customerId}`, /^Customer /);
    const before = (await balanceRows(customerId)).length;
    const keys: (string | undefined)[] = [];
    await admin.route('**/v2/customer-balance-transactions/create', async (route) => {
      keys.push(route.request().headers()['idempotency-key']);
      if (keys.length === 1) {
        // The platform does the work; the browser never hears back.
        await route.fetch();
        await route.abort('failed');
      } else {
        await route.continue();
      }
    });
    await admin.getByLabel('Direction').selectOption('DEBIT');
    await admin.getByLabel('Amount (e.g. 15.00)').fill('1.00');
    await admin.getByLabel('Currency').fill('EUR');
    await admin.getByLabel('Description').fill('Retried fee');
    const lost = admin.waitForEvent('requestfailed');
    await admin.getByRole('button', { name: 'Adjust balance' }).click();
    await lost;
    expect(await balanceRows(customerId)).toHaveLength(before + 1);

    const answered = admin.waitForResponse((response) => response.url().endsWith('/v2/customer-balance-transactions/create'));
    await admin.getByRole('button', { name: 'Adjust balance' }).click();
    expect((await answered).status()).toBe(200);
    await admin.unroute('**/v2/customer-balance-transactions/create');

    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    const stored = await balanceRows(customerId);
    expect(stored).toHaveLength(before + 1);
    expect(stored.at(-1)).toMatchObject({ amount: 100, description: 'Retried fee' });
  });
});

describe('the invoice page lists its payments and its refunds, newest first (issue 44)', () => {
  it('shows each payment with its instrument, provider, status and decline code, and each refund made since', async () => {
    const payer = await m.customer();
    const invoice = await m.openInvoice(payer, { amount: 8_000 });
    const declinedCard = await m.card(payer, '4000000000000002');
    const goodCard = await m.card(payer, '4242424242424242');
    const declined = (await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: declinedCard })).payment;
    const paid = (await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: goodCard })).payment;
    const first = (await m.ok('invoices/refund', { id: invoice.id, amount: 1_250, reason: 'Late delivery' })).refund;
    const second = (await m.ok('invoices/refund', { id: invoice.id, amount: 300 })).refund;

    await visit(support, `/invoices/${invoice.id}`, /^Invoice /);
    const payments = await rows(support, 'Payments of this invoice', 2);
    expect(payments.map((cells) => cells.slice(0, 5))).toEqual([
      [paid.id, 'Succeeded', '€80.00', goodCard, paid.provider],
      [declined.id, `Declined (${declined.decline_code})`, '€80.00', declinedCard, declined.provider],
    ]);
    const refunds = await rows(support, 'Refunds of this invoice', 2);
    expect(refunds.map((cells) => cells.slice(0, 6))).toEqual([
      [second.id, 'Succeeded', '€3.00', paid.id, paid.provider, '—'],
      [first.id, 'Succeeded', '€12.50', paid.id, paid.provider, 'Late delivery'],
    ]);
    // Codes in words, each code kept as the tooltip.
    const status = support.getByTestId('invoice-status');
    expect([await status.textContent(), await status.locator('[title]').getAttribute('title')]).toEqual(['Paid', 'PAID']);
    const declinedStatus = support.getByRole('table', { name: 'Payments of this invoice' }).getByTitle('DECLINED', { exact: true });
    expect(await declinedStatus.textContent()).toBe('Declined');
    const collection = { SEND_INVOICE: 'Send invoice', CHARGE_AUTOMATICALLY: 'Charge automatically' }[invoice.collection_method as string];
    expect(await support.getByTitle(invoice.collection_method, { exact: true }).textContent()).toBe(collection);
    await expectAccessible(support, 'customer-money-invoice-payments-refunds');
  });

  it('takes a refund in major units by the currency exponent and shows amounts in the reader’s locale', async () => {
    const { invoice } = await m.paidInvoice(8_000);
    await visit(admin, `/invoices/${invoice.id}`, /^Invoice /);
    const field = admin.getByLabel('Refund amount in EUR, e.g. 15.00 (empty: all that is left)');
    // More decimals than EUR has is refused on the page, nothing sent.
    await field.fill('4.105');
    await admin.getByRole('button', { name: 'Refund', exact: true }).click();
    await admin.getByRole('alert').filter({ hasText: 'with at most its number of decimals' }).waitFor();
    expect(await platform.db.refund.count({ where: { invoiceId: invoice.id } })).toBe(0);
    // 4.10 EUR is 410 minor units, not 4 (what the field took in minor units before).
    await field.fill('4.10');
    await field.press('Enter');
    expect((await rows(admin, 'Refunds of this invoice', 1))[0]![2]).toBe('€4.10');
    expect(await platform.db.refund.findMany({ where: { invoiceId: invoice.id }, select: { amount: true } })).toEqual([{ amount: 410 }]);
    await expectAccessible(admin, 'customer-money-invoice-refund-major-units');

    // A reader in Germany sees the German way of writing the same amounts.
    const session = await signedInUser(platform, 'money-support-de@example.test', 'SUPPORT');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true, locale: 'de-DE' });
    contexts.push(context);
    await context.addCookies([{ name: 'bp_session', value: session.cookie!, url: platform.baseUrl }]);
    const german = await context.newPage();
    await visit(german, `/invoices/${invoice.id}`, /^Invoice /);
    expect((await rows(german, 'Refunds of this invoice', 1))[0]![2]).toBe('4,10\u00a0€');
    expect((await rows(german, 'Payments of this invoice', 1))[0]![2]).toBe('80,00\u00a0€');
  });
});

describe('the amount fields: decimals to minor units by the currency exponent, on the digits', () => {
  it('converts exactly and refuses more decimals than the currency has', () => {
    expect(minorUnitsOf('0.29', 'EUR')).toBe(29); // 0.29 * 100 is 28.999999999999996 in floats
    expect(minorUnitsOf('1.1', 'usd')).toBe(110);
    expect(minorUnitsOf('1050', 'JPY')).toBe(1050);
    expect(minorUnitsOf('1.5', 'JPY')).toBeUndefined();
    expect(minorUnitsOf('1.050', 'KWD')).toBe(1050);
    expect(minorUnitsOf('1.0501', 'KWD')).toBeUndefined();
    expect(minorUnitsOf('0', 'EUR')).toBeUndefined();
    expect(minorUnitsOf('-1', 'EUR')).toBeUndefined();
    expect(minorUnitsOf('1e3', 'EUR')).toBeUndefined();
    expect(minorUnitsOf('10', 'XXX')).toBeUndefined();
  });
});
