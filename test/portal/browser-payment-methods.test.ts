import type { Page } from 'playwright-core';
import type { Platform } from '../support/platform';
import { useSubscriptionPlatform, type SubscriptionSteps } from '../subscriptions/fixtures';
import { heading, usePortalBrowser } from './browser-support';

/**
 * Issue 43: the payment methods page in Chromium against the real platform, sandbox provider: a
 * card added with the sandbox form, made the default, a card a subscription still pays with
 * refused removal in words, another removed. Stripe Elements: stripe-elements.test.ts.
 */
let platform: Platform;
let s: SubscriptionSteps;
useSubscriptionPlatform((started, steps) => {
  platform = started;
  s = steps;
});
const browser = usePortalBrowser(() => platform, 'payment-methods');

let page: Page;

async function expectAccessible(name: string): Promise<void> {
  expect(await browser.check(page, name)).toEqual([]);
}

const row = (name: string) => page.getByRole('table', { name: 'Saved payment methods' }).getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });

afterAll(() => expect(browser.pageErrors).toEqual([]));

describe('payment methods with the sandbox provider', () => {
  let customerId: string;
  let visa: string;

  it('1. lists the cards and adds one with the sandbox form; a refused number is said field by field', async () => {
    ({ customerId, instrumentId: visa } = await s.payer());
    const price = await s.price(1_000);
    const subscription = await s.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: price, quantity: 1 }], payment_instrument_id: visa });
    await s.statusBecomes(subscription.id, 'ACTIVE');

    page = await browser.openPortal(customerId);
    await heading(page, 'Your subscriptions');
    await page.getByRole('link', { name: 'Payment methods' }).click();
    await heading(page, 'Payment methods');
    await row('Visa ending in 4242').getByText('Default', { exact: true }).waitFor();
    await row('Visa ending in 4242').getByText('Used by a subscription').waitFor();
    await expectAccessible('list');

    const year = String(new Date().getUTCFullYear() + 2);
    await page.getByLabel('Card number').fill('4242 4242 4242 4241');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByRole('alert').filter({ hasText: /Card number/ }).waitFor();
    await expectAccessible('refused-number');

    await page.getByLabel('Card number').fill('5555 5555 5555 4444');
    await page.getByLabel('Expiry month').selectOption('6');
    await page.getByLabel('Expiry year').selectOption(year);
    await page.getByLabel('Name on card (optional)').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByRole('status').filter({ hasText: 'The card was saved.' }).waitFor();
    await row('Mastercard ending in 4444').getByRole('cell', { name: `06/${year}` }).waitFor();
    // The form is empty again for the next card.
    expect(await page.getByLabel('Card number').inputValue()).toBe('');
    const saved = await platform.db.paymentInstrument.findMany({ where: { customerId, status: 'ACTIVE' } });
    expect(saved.map((instrument) => instrument.last4).sort()).toEqual(['4242', '4444']);
  });

  it('2. makes another card the default, refuses in words to remove the card a subscription pays with, removes another', async () => {
    await page.getByRole('button', { name: 'Make default: Mastercard ending in 4444' }).click();
    await page.getByRole('status').filter({ hasText: 'Your default payment method was changed.' }).waitFor();
    await row('Mastercard ending in 4444').getByText('Default', { exact: true }).waitFor();
    const mastercard = (await s.ok('customers/get', { id: customerId })).configuration.default_payment_instrument_id;
    expect(mastercard).not.toBe(visa);

    await page.getByRole('button', { name: 'Remove Visa ending in 4242' }).click();
    const confirmation = page.getByRole('region', { name: 'Remove Visa ending in 4242?' });
    await confirmation.getByRole('button', { name: 'Remove card' }).click();
    await confirmation.getByRole('alert').filter({ hasText: 'This card still pays for a subscription, so it cannot be removed.' }).waitFor();
    await expectAccessible('removal-refused');
    await confirmation.getByRole('button', { name: 'Keep card' }).click();
    expect((await platform.db.paymentInstrument.findUniqueOrThrow({ where: { id: visa } })).status).toBe('ACTIVE');

    await page.getByRole('button', { name: 'Remove Mastercard ending in 4444' }).click();
    await page.getByRole('region', { name: 'Remove Mastercard ending in 4444?' }).getByRole('button', { name: 'Remove card' }).click();
    await page.getByRole('status').filter({ hasText: 'The card was removed.' }).waitFor();
    await row('Mastercard ending in 4444').waitFor({ state: 'detached' });
    expect((await platform.db.paymentInstrument.findUniqueOrThrow({ where: { id: mastercard } })).status).toBe('REVOKED');
    const audit = await platform.db.dashboardAuditEntry.findMany({ where: { accountId: platform.accountId, userId: customerId }, orderBy: { id: 'asc' } });
    expect(audit.map((entry) => [entry.actorType, entry.action])).toEqual([
      ['CUSTOMER', 'payment-instruments/tokenize'],
      ['CUSTOMER', 'customers/update'],
      ['CUSTOMER', 'payment-instruments/revoke'],
    ]);
  });
});
