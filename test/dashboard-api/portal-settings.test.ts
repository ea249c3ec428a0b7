import { newUuid } from '../../domain/ids';
import { DEFAULT_PORTAL_SETTINGS, MAX_SWITCHABLE_PRICES } from '../../domain/portal/settings';
import { createAccount } from '../../scripts/operator/accounts';
import { readPortalSettings } from '../../services/portal/settings';
import { usePlatform } from '../support/platform';
import { BrowserSession, signedInUser } from './browser-session';

/** docs/portal.md, "Settings (merchant side)": every role reads them, a MERCHANT_ADMIN sets them. */
const platform = usePlatform();

let admin: BrowserSession;
let adminId: string;
let monthly: string;
let yearly: string;
let oneTime: string;
let usage: string;

async function created(path: string, body: unknown): Promise<{ id: string }> {
  const answer = await platform.call(path, body);
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

async function price(productId: string, body: Record<string, unknown>): Promise<string> {
  return (await created('/v2/product-prices/create', { product_id: productId, currency: 'EUR', ...body })).id;
}

const settings = (overrides: Record<string, unknown> = {}) => ({
  cancellation: 'IMMEDIATELY',
  quantity_changes: true,
  switchable_price_ids: [monthly, yearly],
  billing_details_updates: false,
  ...overrides,
});

beforeAll(async () => {
  admin = await signedInUser(platform, 'portal-admin@example.test', 'MERCHANT_ADMIN');
  adminId = (await admin.post('/dashboard/api/session/me')).body.user.id;
  const product = await created('/v2/products/create', { name: 'Pro' });
  monthly = await price(product.id, { amount: 1900, billing_type: 'RECURRING', billing_period_config: { value: 1, unit: 'MONTH' } });
  yearly = await price(product.id, { amount: 19000, billing_type: 'RECURRING', billing_period_config: { value: 1, unit: 'YEAR' } });
  oneTime = await price(product.id, { amount: 5000, billing_type: 'ONE_TIME' });
  const meter = await created('/v2/meters/create', { name: 'API calls', event_name: 'api.call', aggregation: 'COUNT' });
  usage = await price(product.id, {
    billing_type: 'USAGE',
    billing_period_config: { value: 1, unit: 'MONTH' },
    meter_id: meter.id,
    usage_model: { model: 'PER_UNIT', unit_amount_decimal: '0.5' },
  });
});

describe('portal settings', () => {
  it('answers the defaults for an account that never set them, to every role', async () => {
    const support = await signedInUser(platform, 'portal-support@example.test', 'SUPPORT');
    expect(await support.post('/dashboard/api/portal-settings/get')).toMatchObject({ status: 200, body: DEFAULT_PORTAL_SETTINGS });
    expect(DEFAULT_PORTAL_SETTINGS).toEqual({ cancellation: 'AT_PERIOD_END', quantity_changes: false, switchable_price_ids: [], billing_details_updates: true });
    expect((await support.post('/dashboard/api/portal-settings/get', {}, { csrf: false })).status).toBe(403);
  });

  it('an admin replaces them; every role reads them back, the portal through readPortalSettings; the change is audited', async () => {
    const updated = await admin.post('/dashboard/api/portal-settings/update', settings());
    expect(updated).toMatchObject({ status: 200, body: settings() });

    const developer = await signedInUser(platform, 'portal-dev@example.test', 'DEVELOPER');
    expect((await developer.post('/dashboard/api/portal-settings/get')).body).toEqual(settings());
    expect(await readPortalSettings(platform.db, platform.accountId)).toEqual(settings());

    const entries = await admin.post('/dashboard/api/audit-log/list', { action: 'portal-settings/update' });
    expect(entries.body.data).toEqual([
      expect.objectContaining({ actor_type: 'USER', user_id: adminId, user_email: 'portal-admin@example.test', object_id: platform.accountId }),
    ]);

    const back = await admin.post('/dashboard/api/portal-settings/update', settings({ cancellation: 'NEVER', switchable_price_ids: [] }));
    expect(back.body).toEqual(settings({ cancellation: 'NEVER', switchable_price_ids: [] }));
    expect(await readPortalSettings(platform.db, platform.accountId)).toEqual(settings({ cancellation: 'NEVER', switchable_price_ids: [] }));
  });

  it('only a MERCHANT_ADMIN changes them, and only with the CSRF token', async () => {
    const developer = await signedInUser(platform, 'portal-dev-2@example.test', 'DEVELOPER');
    const before = await readPortalSettings(platform.db, platform.accountId);
    expect(await developer.post('/dashboard/api/portal-settings/update', settings({ cancellation: 'AT_PERIOD_END' }))).toMatchObject({
      status: 403,
      body: { code: 'PERMISSION_DENIED' },
    });
    expect((await admin.post('/dashboard/api/portal-settings/update', settings({ cancellation: 'AT_PERIOD_END' }), { csrf: false })).status).toBe(403);
    expect(await readPortalSettings(platform.db, platform.accountId)).toEqual(before);
  });

  it('refuses a price that is not a RECURRING price of the account, naming its place in the list, and keeps the settings', async () => {
    const before = await readPortalSettings(platform.db, platform.accountId);
    const missing = '01900000-0000-7000-8000-000000000000';
    expect(await admin.post('/dashboard/api/portal-settings/update', settings({ switchable_price_ids: [monthly, yearly, missing] }))).toMatchObject({
      status: 422,
      body: { code: 'PRODUCT_PRICE_NOT_FOUND', context: { field: 'switchable_price_ids[2]', product_price_id: missing } },
    });
    expect(await admin.post('/dashboard/api/portal-settings/update', settings({ switchable_price_ids: [monthly, oneTime] }))).toMatchObject({
      status: 422,
      body: { code: 'PRICE_NOT_RECURRING', context: { field: 'switchable_price_ids[1]', product_price_id: oneTime, billing_type: 'ONE_TIME' } },
    });
    expect(await admin.post('/dashboard/api/portal-settings/update', settings({ switchable_price_ids: [usage] }))).toMatchObject({
      status: 422,
      body: { code: 'PRICE_NOT_RECURRING', context: { field: 'switchable_price_ids[0]', billing_type: 'USAGE' } },
    });
    expect(await readPortalSettings(platform.db, platform.accountId)).toEqual(before);
  });

  it('refuses a price of another account as one that does not exist', async () => {
    const other = await createAccount(platform.db, 'Other');
    const now = new Date();
    const product = await platform.db.product.create({ data: { id: newUuid(now.getTime()), accountId: other.id, name: 'Theirs', createdAt: now, updatedAt: now } });
    const theirs = await platform.db.productPrice.create({
      data: {
        id: newUuid(now.getTime()),
        accountId: other.id,
        productId: product.id,
        currency: 'EUR',
        amount: 100,
        billingType: 'RECURRING',
        billingPeriodValue: 1,
        billingPeriodUnit: 'MONTH',
        createdAt: now,
        updatedAt: now,
      },
    });
    expect(await admin.post('/dashboard/api/portal-settings/update', settings({ switchable_price_ids: [theirs.id] }))).toMatchObject({
      status: 422,
      body: { code: 'PRODUCT_PRICE_NOT_FOUND', context: { field: 'switchable_price_ids[0]', product_price_id: theirs.id } },
    });
  });

  it('refuses a price listed twice, more than the maximum, a malformed id or a missing field with 400 VALIDATION', async () => {
    expect(await admin.post('/dashboard/api/portal-settings/update', settings({ switchable_price_ids: [monthly, yearly, monthly.toUpperCase()] }))).toMatchObject({
      status: 400,
      body: { code: 'VALIDATION', context: { constraints: { 'switchable_price_ids[2]': { type: 'INVALID', message: 'Listed twice: also switchable_price_ids[0].' } } } },
    });
    const tooMany = Array.from({ length: MAX_SWITCHABLE_PRICES + 1 }, (_, i) => `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`);
    expect(await admin.post('/dashboard/api/portal-settings/update', settings({ switchable_price_ids: tooMany }))).toMatchObject({
      status: 400,
      body: { context: { constraints: { switchable_price_ids: { type: 'MAX' } } } },
    });
    expect(await admin.post('/dashboard/api/portal-settings/update', settings({ switchable_price_ids: ['pp_1'] }))).toMatchObject({
      status: 400,
      body: { context: { constraints: { 'switchable_price_ids[0]': { type: 'FORMAT' } } } },
    });
    expect(await admin.post('/dashboard/api/portal-settings/update', settings({ cancellation: 'SOMETIMES' }))).toMatchObject({
      status: 400,
      body: { context: { constraints: { cancellation: { type: 'ENUM' } } } },
    });
    const { quantity_changes: _left, ...partial } = settings();
    expect(await admin.post('/dashboard/api/portal-settings/update', partial)).toMatchObject({
      status: 400,
      body: { context: { constraints: { quantity_changes: { type: 'REQUIRED' } } } },
    });
  });
});
