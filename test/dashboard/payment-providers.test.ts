import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { freePort } from '../../scripts/net/free-port';
import { createInvitation } from '../../services/dashboard/invitations';
import { merchant } from '../invoices-payments/fixtures';
import { stripeCard as savedStripeCard } from '../payments-stripe/stripe-fixtures';
import { launchBrowser } from '../support/browser';
import { usePlatform } from '../support/platform';
import { startLocalstripe, stripeClientFor, type StripeEmulator } from '../support/stripe-emulators';
import { checkPage } from './page-check';

/**
 * Issue 41 in Debian's Chromium against the real platform and localstripe: an admin connects
 * Stripe and rotates its credentials on the Payment providers page, refusals shown beside their
 * field; other roles do not get the page; the invoice page links the payments Stripe made into
 * Stripe's dashboard.
 * The tests run in order: the admin of the first is used by the others.
 */
const platform = usePlatform();
// The tests point the connection at localstripe from the page (docs/payments-stripe.md, "Connecting").
process.env.STRIPE_API_BASE_EDITABLE = '1';

let browser: Browser;
let localstripe: StripeEmulator;
const contexts: BrowserContext[] = [];
let admin: Page;

const url = (path: string) => `${platform.baseUrl}/dashboard${path}`;
const secret = (prefix: string) => `${prefix}${randomBytes(18).toString('hex')}`;
/** An address nothing listens on: Stripe cannot be reached there. */
const unreachableUrl = async () => `http://127.0.0.1:${await freePort()}`;

async function heading(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('heading', { level: 1, name }).waitFor({ timeout: 15_000 });
}

async function joinAs(email: string, role: 'MERCHANT_ADMIN' | 'DEVELOPER' | 'SUPPORT', landing: string): Promise<Page> {
  // axe-core goes in as an inline script, which the dashboard's CSP refuses (as in dashboard.test.ts).
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  contexts.push(context);
  const page = await context.newPage();
  const invitation = await createInvitation(platform.db, { accountId: platform.accountId, email, role, invitedBy: null }, new Date());
  await page.goto(invitation.url);
  await heading(page, 'Set your password');
  await page.getByLabel('New password').fill('payment providers passphrase');
  await page.getByLabel('Repeat the password').fill('payment providers passphrase');
  await page.getByRole('button', { name: 'Set password and sign in' }).click();
  await heading(page, landing);
  return page;
}

/** Fills the form and saves; the secret fields are password inputs, so they are filled, never read back. */
async function save(page: Page, values: { secretKey: string; webhookSecret: string; apiBase: string }): Promise<void> {
  await page.getByLabel('Secret key').fill(values.secretKey);
  await page.getByLabel('Webhook signing secret').fill(values.webhookSecret);
  await page.getByLabel('API address').fill(values.apiBase);
  await page.getByRole('button', { name: 'Save credentials' }).click();
}

beforeAll(async () => {
  [browser, localstripe] = await Promise.all([launchBrowser(), startLocalstripe()]);
  admin = await joinAs('providers-admin@example.com', 'MERCHANT_ADMIN', 'Overview');
});

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('the Payment providers page', () => {
  it('connects Stripe after localstripe accepted the key, shows the last 4 only, audits it, and rotates', async () => {
    await admin.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Payment providers' }).click();
    await heading(admin, 'Payment providers');
    await admin.getByText('Stripe is not connected.').waitFor();

    const first = { secretKey: secret('sk_test_'), webhookSecret: secret('whsec_'), apiBase: localstripe.url };
    await save(admin, first);
    await admin.getByRole('status').getByText('Saved: Stripe accepted the key.').waitFor();
    expect(await admin.getByTestId('secret-key-last4').textContent()).toBe(`ending in ${first.secretKey.slice(-4)}`);
    expect(await admin.getByTestId('webhook-secret-last4').textContent()).toBe(`ending in ${first.webhookSecret.slice(-4)}`);
    expect(await admin.getByTestId('stripe-mode').textContent()).toContain('Test');
    expect(await admin.getByLabel('Secret key').inputValue()).toBe('');
    expect(await admin.getByLabel('Webhook signing secret').inputValue()).toBe('');
    expect(await admin.getByLabel('API address').inputValue()).toBe(localstripe.url);
    const connection = admin.getByRole('definition').filter({ hasText: 'You' });
    await connection.waitFor();
    expect(await checkPage(admin, 'payment-providers-connected')).toEqual([]);

    // Nothing the page holds, nor what a reload fetches, carries either secret.
    await admin.reload();
    await heading(admin, 'Payment providers');
    await admin.getByTestId('secret-key-last4').waitFor();
    const html = await admin.content();
    for (const value of [first.secretKey, first.webhookSecret]) expect(html).not.toContain(value.slice(0, -4));

    const audited = await platform.db.dashboardAuditEntry.findMany({ where: { accountId: platform.accountId, action: 'payment-providers/connect-stripe' } });
    expect(audited.map((entry) => [entry.userEmail, entry.objectId])).toEqual([['providers-admin@example.com', platform.accountId]]);

    const rotated = { secretKey: secret('sk_test_'), webhookSecret: secret('whsec_'), apiBase: localstripe.url };
    // The publishable key is public: typed in clear, shown in full, and kept in its field for the next rotation.
    const publishableKey = secret('pk_test_');
    await admin.getByLabel('Publishable key').fill(publishableKey);
    await save(admin, rotated);
    await admin.getByTestId('secret-key-last4').getByText(`ending in ${rotated.secretKey.slice(-4)}`).waitFor();
    expect(await admin.getByTestId('webhook-secret-last4').textContent()).toBe(`ending in ${rotated.webhookSecret.slice(-4)}`);
    expect(await admin.getByTestId('publishable-key').textContent()).toBe(publishableKey);
    expect(await admin.getByLabel('Publishable key').inputValue()).toBe(publishableKey);
    expect(await admin.getByLabel('Publishable key').getAttribute('type')).toBe('text');
  });

  it('shows a refusal beside its field: the format, a key Stripe rejects, an address it cannot reach', async () => {
    await admin.goto(url('/payment-providers'));
    await heading(admin, 'Payment providers');
    const shown = (await admin.getByTestId('secret-key-last4').textContent())!;
    const alertOf = (label: string) => admin.locator(`#${{ 'Secret key': 'stripe-secret-key', 'Webhook signing secret': 'stripe-webhook-secret', 'Publishable key': 'stripe-publishable-key', 'API address': 'stripe-api-base' }[label]}-error`);
    const expectBeside = async (label: string, text: string) => {
      await alertOf(label).getByText(text).waitFor();
      expect(await admin.getByLabel(label).getAttribute('aria-invalid')).toBe('true');
      expect(await alertOf(label).getAttribute('role')).toBe('alert');
    };

    await save(admin, { secretKey: secret('pk_test_'), webhookSecret: secret('whsec_'), apiBase: localstripe.url });
    await expectBeside('Secret key', 'must be a Stripe secret or restricted key');

    await save(admin, { secretKey: secret('sk_test_'), webhookSecret: 'whsec_short', apiBase: localstripe.url });
    await expectBeside('Webhook signing secret', 'webhook signing secret must be');

    const kept = await admin.getByLabel('Publishable key').inputValue();
    await admin.getByLabel('Publishable key').fill(secret('pk_live_'));
    await save(admin, { secretKey: secret('sk_test_'), webhookSecret: secret('whsec_'), apiBase: localstripe.url });
    await expectBeside('Publishable key', 'pk_test_… for a test key');
    await admin.getByLabel('Publishable key').fill(kept);

    // localstripe answers 401 to a restricted key, as Stripe does to a revoked one.
    await save(admin, { secretKey: secret('rk_test_'), webhookSecret: secret('whsec_'), apiBase: localstripe.url });
    await expectBeside('Secret key', 'Stripe refused the secret key');
    expect(await checkPage(admin, 'payment-providers-refused')).toEqual([]);

    await save(admin, { secretKey: secret('sk_test_'), webhookSecret: secret('whsec_'), apiBase: await unreachableUrl() });
    await expectBeside('API address', 'Stripe could not be reached');

    // Nothing refused was saved.
    await admin.reload();
    await heading(admin, 'Payment providers');
    expect(await admin.getByTestId('secret-key-last4').textContent()).toBe(shown);
  });

  it('is not offered to a developer, and its routes refuse anyone but an admin', async () => {
    const developer = await joinAs('providers-developer@example.com', 'DEVELOPER', 'API keys');
    expect(await developer.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Payment providers' }).count()).toBe(0);
    await developer.goto(url('/payment-providers'));
    await heading(developer, 'Not found');
    const answers = await developer.evaluate(async () => {
      const me = (await (await fetch('/dashboard/api/session/me', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).json()) as { csrf_token: string };
      const call = async (path: string, body: unknown) => {
        const response = await fetch(`/dashboard/api/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': me.csrf_token }, body: JSON.stringify(body) });
        return { status: response.status, code: ((await response.json()) as { code: string }).code };
      };
      return [
        await call('payment-providers/get', {}),
        await call('payment-providers/connect-stripe', { secret_key: 'sk_test_developer0000', webhook_secret: 'whsec_developer0000' }),
      ];
    });
    expect(answers).toEqual([
      { status: 403, code: 'PERMISSION_DENIED' },
      { status: 403, code: 'PERMISSION_DENIED' },
    ]);
    expect((await platform.db.stripeConnection.findUniqueOrThrow({ where: { accountId: platform.accountId } })).connectedBy).not.toContain('developer');
  });
});

describe('the invoice page', () => {
  const stripeCard = (customerId: string, number: string) => savedStripeCard(platform, stripeClientFor(localstripe), customerId, number);

  it('shows each payment’s provider and reference, linked into Stripe’s test data', async () => {
    // The account is connected to localstripe by the page's tests above: its charges go to Stripe.
    const m = merchant(platform);
    const customerId = await m.customer();
    const invoice = await m.openInvoice(customerId, { amount: 2_500 });
    const declined = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: await stripeCard(customerId, '4000000000000341') });
    const paid = await m.ok('invoices/pay', { id: invoice.id, payment_instrument_id: await stripeCard(customerId, '4242424242424242') });
    expect([declined.payment.status, paid.payment.status]).toEqual(['DECLINED', 'SUCCEEDED']);

    await admin.goto(url(`/invoices/${invoice.id}`));
    await heading(admin, `Invoice ${invoice.id}`);
    const table = admin.getByRole('table', { name: 'Payments of this invoice' });
    // A decline names its PaymentIntent, or the charge where localstripe (like Stripe's older answers) names none.
    for (const [payment, reference] of [[declined.payment, /^(pi|ch)_/], [paid.payment, /^pi_/]] as const) {
      const stored = await platform.db.payment.findUniqueOrThrow({ where: { id: payment.id } });
      expect(stored.providerChargeId).toMatch(reference);
      const row = table.getByRole('row').filter({ hasText: payment.id });
      const link = row.getByRole('link', { name: new RegExp(stored.providerChargeId!) });
      await link.waitFor();
      expect(await link.getAttribute('href')).toBe(`https://dashboard.stripe.com/test/payments/${stored.providerChargeId}`);
      expect(await row.getByRole('cell', { name: 'stripe', exact: true }).count()).toBe(1);
    }
    expect(await table.getByRole('row').filter({ hasText: declined.payment.id }).getByText('DECLINED (card_declined)').count()).toBe(1);
    expect(await checkPage(admin, 'invoice-payments-providers')).toEqual([]);
  });
});
