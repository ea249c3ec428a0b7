import { createAccount, createOperatorApiKey } from '../../scripts/operator/accounts';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function constraintOf(path: string, body: unknown, field: string) {
  const res = await platform.call(path, body);
  expect(res.status).toBe(400);
  return res.body.context.constraints[field];
}

async function product(name = 'Pro plan') {
  const res = await platform.call('/v2/products/create', { name, description: 'Everything' });
  expect(res.status).toBe(200);
  return res.body;
}

describe('products', () => {
  it('creates, gets and lists products with UUIDv7 ids, newest first', async () => {
    const first = await product('Basic');
    const second = await product('Pro');
    expect(first).toEqual({
      id: expect.stringMatching(UUID_V7),
      name: 'Basic',
      description: 'Everything',
      created_at: expect.stringMatching(/\.\d{6}Z$/),
      updated_at: first.created_at,
    });
    expect((await platform.call('/v2/products/get', { id: first.id })).body).toEqual(first);
    expect((await platform.call('/v2/products/get', { id: first.id.toUpperCase() })).body).toEqual(first);
    const list = await platform.call('/v2/products/list', { filters: { name: { operator: 'CONTAINS', value: 'b' } } });
    expect(list.body.items.map((p: { id: string }) => p.id)).toEqual([first.id]);
    const all = await platform.call('/v2/products/list', { pagination: { page_size: 1 } });
    expect(all.body.items[0].id).toBe(second.id);
    const next = await platform.call('/v2/products/list', { pagination: { page_size: 1, next_page_token: all.body.pagination.next_page_token } });
    expect(next.body.items[0].id).toBe(first.id);
  });

  it('validates names and ids, and answers 404 for an unknown product', async () => {
    expect(await constraintOf('/v2/products/create', {}, 'name')).toMatchObject({ type: 'REQUIRED' });
    expect(await constraintOf('/v2/products/create', { name: '  ' }, 'name')).toMatchObject({ type: 'MIN' });
    expect(await constraintOf('/v2/products/get', { id: 'prod_1' }, 'id')).toMatchObject({ type: 'FORMAT' });
    const missing = await platform.call('/v2/products/get', { id: '01890a5d-ac96-774b-bcce-b302099a8057' });
    expect(missing.status).toBe(404);
  });

  it('keeps products to their account', async () => {
    const mine = await product();
    const other = await createAccount(platform.db, 'Other');
    const key = await createOperatorApiKey(platform.db, { accountId: other.id, name: 'other' });
    expect((await platform.call('/v2/products/get', { id: mine.id }, { secret: key.secret })).status).toBe(404);
    expect((await platform.call('/v2/products/list', {}, { secret: key.secret })).body.items).toEqual([]);
  });
});

describe('product prices', () => {
  it('creates a RECURRING price with its period and a ONE_TIME price without', async () => {
    const prod = await product();
    const recurring = await platform.call('/v2/product-prices/create', {
      product_id: prod.id,
      currency: 'EUR',
      amount: 1999,
      billing_type: 'RECURRING',
      billing_period_config: { value: 1, unit: 'MONTH' },
      tax_category_id: 'taxc_standard',
    });
    expect(recurring.status).toBe(200);
    expect(recurring.body).toEqual({
      id: expect.stringMatching(UUID_V7),
      product_id: prod.id,
      currency: 'EUR',
      amount: 1999,
      billing_type: 'RECURRING',
      billing_period_config: { value: 1, unit: 'MONTH' },
      tax_category_id: 'taxc_standard',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const oneTime = await platform.call('/v2/product-prices/create', { product_id: prod.id, currency: 'JPY', amount: 0, billing_type: 'ONE_TIME' });
    expect(oneTime.status).toBe(200);
    expect(oneTime.body.billing_period_config).toBeUndefined();
    expect((await platform.call('/v2/product-prices/get', { id: oneTime.body.id })).body).toEqual(oneTime.body);
    const listed = await platform.call('/v2/product-prices/list', { filters: { product_id: { operator: 'EQ', value: prod.id }, currency: { operator: 'EQ', value: 'EUR' } } });
    expect(listed.body.items.map((p: { id: string }) => p.id)).toEqual([recurring.body.id]);
  });

  it('requires a period for RECURRING, refuses one for ONE_TIME, and checks amounts, currencies and the tax category', async () => {
    const prod = await product();
    const base = { product_id: prod.id, currency: 'EUR', amount: 100 };
    const path = '/v2/product-prices/create';
    expect(await constraintOf(path, { ...base, billing_type: 'RECURRING' }, 'billing_period_config')).toMatchObject({ type: 'REQUIRED' });
    expect(
      await constraintOf(path, { ...base, billing_type: 'ONE_TIME', billing_period_config: { value: 1, unit: 'DAY' } }, 'billing_period_config'),
    ).toMatchObject({ type: 'INVALID' });
    expect(
      await constraintOf(path, { ...base, billing_type: 'RECURRING', billing_period_config: { value: 0, unit: 'DAY' } }, 'billing_period_config.value'),
    ).toMatchObject({ type: 'MIN' });
    expect(
      await constraintOf(path, { ...base, billing_type: 'RECURRING', billing_period_config: { value: 1, unit: 'FORTNIGHT' } }, 'billing_period_config.unit'),
    ).toMatchObject({ type: 'ENUM' });
    expect(await constraintOf(path, { ...base, amount: -1, billing_type: 'ONE_TIME' }, 'amount')).toMatchObject({ type: 'MIN' });
    expect(await constraintOf(path, { ...base, amount: 1.5, billing_type: 'ONE_TIME' }, 'amount')).toMatchObject({ type: 'TYPE' });
    expect(await constraintOf(path, { ...base, currency: 'XXX', billing_type: 'ONE_TIME' }, 'currency')).toMatchObject({ type: 'ENUM' });
    expect(await constraintOf(path, { ...base, billing_type: 'ONE_TIME', tax_category_id: 'vat' }, 'tax_category_id')).toMatchObject({ type: 'FORMAT' });
  });

  it('refuses a price of an unknown product with 422 PRODUCT_NOT_FOUND', async () => {
    const res = await platform.call('/v2/product-prices/create', {
      product_id: '01890a5d-ac96-774b-bcce-b302099a8057',
      currency: 'EUR',
      amount: 1,
      billing_type: 'ONE_TIME',
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'PRODUCT_NOT_FOUND', context: { product_id: '01890a5d-ac96-774b-bcce-b302099a8057' } });
  });
});

describe('coupons', () => {
  it('creates PERCENTAGE and AMOUNT coupons', async () => {
    const percent = await platform.call('/v2/coupons/create', { code: 'SPRING-12', calculation_type: 'PERCENTAGE', calculation_value: 12.3456 });
    expect(percent.status).toBe(200);
    expect(percent.body).toEqual({
      id: expect.stringMatching(UUID_V7),
      code: 'SPRING-12',
      calculation_type: 'PERCENTAGE',
      calculation_value: 12.3456,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const amount = await platform.call('/v2/coupons/create', { code: 'FIVER', calculation_type: 'AMOUNT', calculation_value: 500, currency: 'EUR' });
    expect(amount.body).toMatchObject({ calculation_type: 'AMOUNT', calculation_value: 500, currency: 'EUR' });
    expect((await platform.call('/v2/coupons/get', { id: amount.body.id })).body).toEqual(amount.body);
    const listed = await platform.call('/v2/coupons/list', { filters: { code: { operator: 'EQ', value: 'FIVER' } } });
    expect(listed.body.items).toEqual([amount.body]);
  });

  it('refuses a code already used in the account with 422 COUPON_CODE_ALREADY_EXISTS', async () => {
    const first = await platform.call('/v2/coupons/create', { code: 'ONCE', calculation_type: 'PERCENTAGE', calculation_value: 5 });
    const again = await platform.call('/v2/coupons/create', { code: 'ONCE', calculation_type: 'AMOUNT', calculation_value: 5, currency: 'USD' });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ code: 'COUPON_CODE_ALREADY_EXISTS', context: { code: 'ONCE', coupon_id: first.body.id } });
    const racing = await Promise.all(
      Array.from({ length: 4 }, () => platform.call('/v2/coupons/create', { code: 'RACE', calculation_type: 'PERCENTAGE', calculation_value: 5 })),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([200, 422, 422, 422]);
    expect(racing.filter((r) => r.status === 422).every((r) => r.body.code === 'COUPON_CODE_ALREADY_EXISTS')).toBe(true);
  });

  it.each([
    [{ calculation_type: 'PERCENTAGE', calculation_value: 0 }, 'calculation_value', 'MIN'],
    [{ calculation_type: 'PERCENTAGE', calculation_value: 100.0001 }, 'calculation_value', 'MAX'],
    [{ calculation_type: 'PERCENTAGE', calculation_value: 1.23456 }, 'calculation_value', 'FORMAT'],
    [{ calculation_type: 'PERCENTAGE', calculation_value: 10, currency: 'EUR' }, 'currency', 'INVALID'],
    [{ calculation_type: 'AMOUNT', calculation_value: 10 }, 'currency', 'REQUIRED'],
    [{ calculation_type: 'AMOUNT', calculation_value: 0, currency: 'EUR' }, 'calculation_value', 'MIN'],
    [{ calculation_type: 'AMOUNT', calculation_value: 9.5, currency: 'EUR' }, 'calculation_value', 'FORMAT'],
    [{ calculation_type: 'FREE', calculation_value: 1 }, 'calculation_type', 'ENUM'],
  ])('refuses %j', async (body, field, type) => {
    expect(await constraintOf('/v2/coupons/create', { code: 'BAD', ...body }, field)).toMatchObject({ type });
  });

  it('accepts 100 % and refuses malformed codes', async () => {
    expect((await platform.call('/v2/coupons/create', { code: 'FREE', calculation_type: 'PERCENTAGE', calculation_value: 100 })).status).toBe(200);
    expect(await constraintOf('/v2/coupons/create', { code: 'no spaces', calculation_type: 'PERCENTAGE', calculation_value: 1 }, 'code')).toMatchObject({
      type: 'FORMAT',
    });
  });
});
