import type { Page } from 'playwright-core';
import type Stripe from 'stripe';
import { connectStripe } from '../../services/payments/providers/stripe/connection';
import { merchant } from '../invoices-payments/fixtures';
import { usePlatform } from '../support/platform';
import { startLocalstripe, stripeClientFor, type StripeEmulator } from '../support/stripe-emulators';
import { heading, usePortalBrowser } from './browser-support';

/**
 * Issue 43 in Chromium: the portal's Payment methods page of a Stripe-connected account loads
 * Stripe.js from `payment_provider.js_url`, here localstripe's stand-in `localstripe-v3.js`
 * (served by localstripe at `/js.stripe.com/v3/`), which mounts plain inputs where Stripe would
 * mount its card iframe and confirms the SetupIntent against localstripe from the browser. The
 * card number goes to localstripe only; the platform learns the SetupIntent's id.
 */
const platform = usePlatform();
const browser = usePortalBrowser(() => platform, 'stripe-elements');
const m = merchant(platform);
const SECRET_KEY = 'sk_test_elements0001';
const PUBLISHABLE_KEY = 'pk_test_elements0001';
const nextYear = new Date().getUTCFullYear() + 1;
/**
 * localstripe-v3.js's inputs stand where Stripe's own card iframe would (which carries its own
 * labels, out of the page's reach): unlabeled placeholders of the emulator, not the portal's markup.
 */
const STRIPE_ELEMENT = '[data-testid="stripe-card"]';

let emulator: StripeEmulator;
let stripe: Stripe;
let jsUrl: string;

beforeAll(async () => {
  emulator = await startLocalstripe();
  stripe = stripeClientFor(emulator, SECRET_KEY);
  jsUrl = `${emulator.url}/js.stripe.com/v3/`;
  // Read by the API at each request: session/me's js_url and the pages' content security policy.
  process.env.STRIPE_JS_URL = jsUrl;
  await connectStripe(
    platform.db,
    platform.accountId,
    { secretKey: SECRET_KEY, webhookSecret: 'whsec_elements0001', apiBase: emulator.url, publishableKey: PUBLISHABLE_KEY, connectedBy: 'operator' },
    new Date(),
  );
});

afterAll(() => {
  delete process.env.STRIPE_JS_URL;
  expect(browser.pageErrors).toEqual([]);
});

/** Everything the page sent the platform, bodies included: a card number must be in none. */
function platformRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(platform.baseUrl)) seen.push(`${request.method()} ${request.url()} ${request.postData() ?? ''}`);
  });
  return seen;
}

async function paymentMethodsPage(customerId: string): Promise<Page> {
  const page = await browser.openPortal(customerId);
  await page.getByRole('navigation').getByRole('link', { name: 'Payment methods' }).click();
  await heading(page, 'Payment methods');
  return page;
}

/** Types a card into localstripe-v3.js's inputs, found by their placeholders, as a customer types into Stripe's field. */
async function typeCard(page: Page, number: string): Promise<void> {
  const input = (placeholder: string) => page.locator(`${STRIPE_ELEMENT} input[placeholder="${placeholder}"]`);
  await input('number').fill(number);
  await input('exp_month').fill('08');
  await input('exp_year').fill(String(nextYear).slice(2));
  await input('cvc').fill('123');
  await input('postal_code').fill('10115');
}

describe('localstripe', () => {
  it('serves localstripe-v3.js at /js.stripe.com/v3/, a script defining Stripe', async () => {
    const response = await fetch(jsUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/javascript');
    expect(await response.text()).toContain('Stripe = (apiKey) =>');
  });
});

describe('the Payment methods page with Stripe Elements', () => {
  it('loads localstripe-v3.js, saves the card typed into its element through a SetupIntent, and lists it; no card number reaches the platform', async () => {
    const customerId = await m.customer();
    const page = await paymentMethodsPage(customerId);
    const sent = platformRequests(page);
    await page.locator(`${STRIPE_ELEMENT} input[placeholder="number"]`).waitFor({ timeout: 15_000 });
    expect(await page.locator(`script[src="${jsUrl}"]`).count()).toBe(1);
    await page.getByText('You have no saved payment methods.').waitFor();

    await typeCard(page, '4242424242424242');
    await page.getByLabel('Name on card (optional)').fill('Ada Lovelace');
    expect(await browser.check(page, 'card-typed', { exclude: [STRIPE_ELEMENT] })).toEqual([]);
    await page.getByRole('button', { name: 'Save card' }).click();

    await page.getByText('The card was saved.').waitFor({ timeout: 15_000 });
    const row = page.getByRole('row').filter({ hasText: 'ending in 4242' });
    await row.waitFor();
    expect(await row.textContent()).toContain('Ada Lovelace');
    expect(await row.textContent()).toContain(`08/${nextYear}`);
    expect(await browser.check(page, 'card-saved', { exclude: [STRIPE_ELEMENT] })).toEqual([]);

    const [instrument] = await platform.db.paymentInstrument.findMany({ where: { customerId } });
    expect(instrument).toMatchObject({ provider: 'stripe', last4: '4242', cardholderName: 'Ada Lovelace', status: 'ACTIVE' });
    const mirror = await platform.db.stripeCustomer.findUniqueOrThrow({ where: { customerId } });
    const method = await stripe.paymentMethods.retrieve(instrument!.providerReference!);
    expect(method.customer).toBe(mirror.stripeCustomerId);

    expect(sent.some((request) => request.includes('/portal/api/payment-instruments/create-setup-intent'))).toBe(true);
    expect(sent.some((request) => /\/portal\/api\/payment-instruments\/attach .*"setup_intent_id":"seti_/.test(request))).toBe(true);
    for (const request of sent) expect(request).not.toContain('4242424242424242');
  });

  it('completes the issuer’s authentication in localstripe’s 3-D Secure dialog before saving', async () => {
    const customerId = await m.customer();
    const page = await paymentMethodsPage(customerId);
    await page.locator(`${STRIPE_ELEMENT} input[placeholder="number"]`).waitFor({ timeout: 15_000 });
    await typeCard(page, '4000002760003184');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByRole('button', { name: 'Complete authentication' }).click({ timeout: 15_000 });
    await page.getByText('The card was saved.').waitFor({ timeout: 15_000 });
    await page.getByRole('row').filter({ hasText: 'ending in 3184' }).waitFor();
    expect(await platform.db.paymentInstrument.count({ where: { customerId, provider: 'stripe' } })).toBe(1);
  });

  it('says a declined card in Stripe’s words and saves nothing', async () => {
    const customerId = await m.customer();
    const page = await paymentMethodsPage(customerId);
    await page.locator(`${STRIPE_ELEMENT} input[placeholder="number"]`).waitFor({ timeout: 15_000 });
    await typeCard(page, '4000000000000002');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByRole('alert').filter({ hasText: 'Your card was declined.' }).waitFor({ timeout: 15_000 });
    expect(await browser.check(page, 'card-declined', { exclude: [STRIPE_ELEMENT] })).toEqual([]);
    expect(await platform.db.paymentInstrument.count({ where: { customerId } })).toBe(0);
    expect(await page.getByRole('button', { name: 'Save card' }).isEnabled()).toBe(true);
  });
});

describe('the hosted invoice page with Stripe Elements', () => {
  it('pays the invoice with the card typed into the element, through a SetupIntent of the invoice’s customer', async () => {
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId, { amount: 4_900, collection_method: 'SEND_INVOICE' });
    const page = await browser.newPage();
    const sent = platformRequests(page);
    await page.goto(invoice.hosted_invoice_url);
    await heading(page, `Invoice ${invoice.id}`);
    await page.locator(`${STRIPE_ELEMENT} input[placeholder="number"]`).waitFor({ timeout: 15_000 });
    await typeCard(page, '4242424242424242');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText(/This invoice (was paid|is paid)/).waitFor({ timeout: 15_000 });
    expect(await browser.check(page, 'hosted-paid', { exclude: [STRIPE_ELEMENT] })).toEqual([]);

    expect((await m.ok('invoices/get', { id: invoice.id })).status).toBe('PAID');
    const [payment] = await platform.db.payment.findMany({ where: { invoiceId: invoice.id } });
    expect(payment).toMatchObject({ status: 'SUCCEEDED', amount: 4_900 });
    expect((await stripe.paymentIntents.retrieve(payment!.providerChargeId!)).status).toBe('succeeded');
    for (const request of sent) expect(request).not.toContain('4242424242424242');
  });
});
