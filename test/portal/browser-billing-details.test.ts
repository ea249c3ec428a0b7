import type { Page } from 'playwright-core';
import type { Platform } from '../support/platform';
import { useSubscriptionPlatform, type SubscriptionSteps } from '../subscriptions/fixtures';
import { heading, usePortalBrowser } from './browser-support';

/**
 * Issue 43: the portal's languages and the billing details page in Chromium against the real
 * platform. The customer's preferred locale (German) decides the words, the amounts and the
 * dates; the link's `locale` goes before it; the header's switch before both, for the tab's
 * session. Billing details go through customers/update's validation, its refusals said field by
 * field in the page's language; read-only where the merchant does not allow changes.
 */
let platform: Platform;
let s: SubscriptionSteps;
useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});
const browser = usePortalBrowser(() => platform, 'billing-details');

let page: Page;
let customerId: string;

async function expectAccessible(name: string): Promise<void> {
  expect(await browser.check(page, name)).toEqual([]);
}

async function customer() {
  return s.ok('customers/get', { id: customerId });
}

afterAll(() => expect(browser.pageErrors).toEqual([]));

describe('languages', () => {
  it("1. speaks the customer's preferred locale: German words, amounts and dates", async () => {
    customerId = (await s.ok('customers/create', { type: 'INDIVIDUAL', email: 'kundin@example.com', configuration: { preferred_locales: ['fr-FR', 'de-DE'] } })).id;
    const card = await s.card(customerId);
    await s.ok('customers/update', { id: customerId, configuration: { default_payment_instrument_id: card } });
    const price = await s.price(123_456, { value: 1, unit: 'MONTH' }, 'Pro');
    const subscription = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: price, quantity: 1 }] });
    await s.statusBecomes(subscription.id, 'ACTIVE');

    page = await browser.openPortal(customerId);
    // French is not spoken: the first preferred locale the portal speaks is de-DE.
    await heading(page, 'Ihre Abonnements');
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.lang)).toBe('de-DE');
    const panel = page.getByRole('region', { name: 'Pro' });
    await panel.getByText('Aktiv', { exact: true }).waitFor();
    await panel.getByRole('table', { name: 'Positionen' }).getByRole('row', { name: /^Pro 1 1\.234,56 € monatlich/ }).waitFor();
    await panel.getByRole('button', { name: 'Abonnement kündigen' }).waitFor();
    expect(await page.getByRole('link', { name: 'Rechnungsdaten' }).count()).toBe(1);
    await expectAccessible('overview-de');
  });

  it("2. switches language from the header, for the tab's session; a link's locale goes before the customer's", async () => {
    await page.getByLabel('Sprache', { exact: true }).selectOption('en');
    await heading(page, 'Your subscriptions');
    await page.getByRole('region', { name: 'Pro' }).getByRole('row', { name: /^Pro 1 €1,234\.56 every month/ }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).document.documentElement.lang)).toBe('en');
    await page.reload();
    await heading(page, 'Your subscriptions');

    const english = await browser.openPortal(customerId, { locale: 'en-GB' });
    await heading(english, 'Your subscriptions');
    expect(await english.evaluate(() => (globalThis as any).document.documentElement.lang)).toBe('en-GB');
    // en-GB formats as in Britain: the day before the month.
    await english.getByRole('region', { name: 'Pro' }).getByText(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/).first().waitFor();
  });
});

describe('billing details', () => {
  it('3. saves address, VAT registration and e-mail through customers/update, as the customer', async () => {
    await page.getByRole('link', { name: 'Billing details' }).click();
    await heading(page, 'Billing details');
    await expectAccessible('empty');
    await page.getByLabel('E-mail for invoices').fill('billing@example.com');
    await page.getByLabel('Street and number').fill('Unter den Linden 1');
    await page.getByLabel('Postal code').fill('10117');
    await page.getByLabel('City').fill('Berlin');
    await page.getByLabel('Country', { exact: true }).selectOption({ label: 'Germany' });
    await page.getByRole('button', { name: 'Add a VAT registration' }).click();
    // A new registration starts in the address's country.
    expect(await page.getByLabel('Country of VAT registration 1').inputValue()).toBe('DEU');
    await page.getByLabel('VAT number 1').fill('DE 123.456-789');
    await page.getByRole('button', { name: 'Save billing details' }).click();
    await page.getByRole('status').filter({ hasText: 'Your billing details were saved.' }).waitFor();

    const saved = await customer();
    expect(saved.email).toBe('billing@example.com');
    expect(saved.address).toEqual({ line1: 'Unter den Linden 1', postal_code: '10117', city: 'Berlin', country: 'DEU' });
    expect(saved.tax.registrations).toEqual([{ scheme: 'VAT', id: 'DE123456789', country: 'DEU' }]);
    // The number as the platform stores it.
    expect(await page.getByLabel('VAT number 1').inputValue()).toBe('DE123456789');
    const audit = await platform.db.dashboardAuditEntry.findMany({ where: { accountId: platform.accountId, userId: customerId } });
    expect(audit.map((entry) => [entry.actorType, entry.action, entry.objectId])).toEqual([['CUSTOMER', 'customers/update', customerId]]);
    await expectAccessible('saved');
  });

  it("4. says customers/update's refusals field by field, in the page's language", async () => {
    await page.getByLabel('E-mail for invoices').fill('not an address');
    await page.getByLabel('VAT number 1').fill('x');
    await page.getByRole('button', { name: 'Save billing details' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Please check these fields:' });
    await alert.getByText('E-mail for invoices: Expected an e-mail address.').waitFor();
    await alert.getByText(/^VAT number 1: Expected 2 to 20 letters and digits/).waitFor();
    await expectAccessible('refused');

    await page.getByLabel('Language', { exact: true }).selectOption('de');
    await heading(page, 'Rechnungsdaten');
    await page.getByRole('button', { name: 'Rechnungsdaten speichern' }).click();
    const german = page.getByRole('alert').filter({ hasText: 'Bitte prüfen Sie diese Felder:' });
    await german.getByText('E-Mail-Adresse für Rechnungen: hat nicht das erwartete Format').waitFor();
    await german.getByText(/^USt-IdNr\. 1: /).waitFor();
    expect((await customer()).email).toBe('billing@example.com');
    await page.getByLabel('Sprache', { exact: true }).selectOption('en');
    await heading(page, 'Billing details');
  });

  it('5. is read-only where the merchant does not let customers change their details; the language stays theirs', async () => {
    await platform.db.account.update({ where: { id: platform.accountId }, data: { portalSettings: { billing_details_updates: false } } });
    await page.reload();
    await heading(page, 'Billing details');
    await page.getByText('Your billing details can be changed only by Test account. Contact them for changes.').waitFor();
    expect(await page.getByLabel('E-mail for invoices').isDisabled()).toBe(true);
    expect(await page.getByLabel('Street and number').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Add a VAT registration' }).count()).toBe(0);
    await expectAccessible('read-only');

    await page.getByLabel('Language of invoices and e-mails').selectOption('en');
    await page.getByRole('button', { name: 'Save billing details' }).click();
    await page.getByRole('status').filter({ hasText: 'Your billing details were saved.' }).waitFor();
    expect((await customer()).configuration.preferred_locales).toEqual(['en', 'fr-FR', 'de-DE']);
  });
});
