import { newId } from '../../domain/ids';
import { createAccount } from '../../scripts/operator/accounts';
import { usePlatform } from '../support/platform';

/** USAGE product prices (docs/usage.md, "Usage prices"): a meter, a model, a period. */
const platform = usePlatform();
const CREATE = '/v2/product-prices/create';
const MONTHLY = { value: 1, unit: 'MONTH' };

/** A meter row with its first version, as meters/create leaves them. */
async function meter(options: { accountId?: string; status?: 'ACTIVE' | 'ARCHIVED' } = {}): Promise<string> {
  const now = new Date();
  const id = newId('meter');
  await platform.db.meter.create({
    data: {
      id,
      accountId: options.accountId ?? platform.accountId,
      name: 'API calls',
      eventName: 'api_call',
      aggregation: 'COUNT',
      status: options.status ?? 'ACTIVE',
      version: 1,
      createdAt: now,
      updatedAt: now,
      archivedAt: options.status === 'ARCHIVED' ? now : null,
      versions: { create: { version: 1, effectiveFrom: now, property: null, filters: [], groupBy: [], createdAt: now } },
    },
  });
  return id;
}

let productId: string;
let meterId: string;

beforeAll(async () => {
  productId = (await platform.call('/v2/products/create', { name: 'API' })).body.id;
  meterId = await meter();
});

const usagePrice = (usage_model: unknown, extra: Record<string, unknown> = {}) => ({
  product_id: productId,
  currency: 'EUR',
  billing_type: 'USAGE',
  billing_period_config: MONTHLY,
  meter_id: meterId,
  usage_model,
  ...extra,
});

async function constraints(body: unknown) {
  const res = await platform.call(CREATE, body);
  expect(res.status).toBe(400);
  return res.body.context.constraints;
}

describe('USAGE product prices', () => {
  it('creates one per model, amount 0, showing its meter and model as stored (decimals in their shortest form)', async () => {
    const perUnit = await platform.call(CREATE, usagePrice({ model: 'PER_UNIT', unit_amount_decimal: '0.0500' }));
    expect(perUnit.status).toBe(200);
    expect(perUnit.body).toEqual({
      id: expect.any(String),
      product_id: productId,
      currency: 'EUR',
      amount: 0,
      billing_type: 'USAGE',
      billing_period_config: MONTHLY,
      meter_id: meterId,
      usage_model: { model: 'PER_UNIT', unit_amount_decimal: '0.05' },
      created_at: expect.any(String),
      updated_at: perUnit.body.created_at,
    });
    const pack = await platform.call(CREATE, usagePrice({ model: 'PACKAGE', package_size: 100, package_amount: 500 }, { amount: 0 }));
    expect(pack.body).toMatchObject({ amount: 0, usage_model: { model: 'PACKAGE', package_size: 100, package_amount: 500 } });
    const tiers = [
      { up_to: 1000, unit_amount_decimal: '0.5' },
      { up_to: 10000, unit_amount_decimal: '0.250', flat_amount: 100 },
      { up_to: null, unit_amount_decimal: '0.1' },
    ];
    const stored = [
      { up_to: 1000, unit_amount_decimal: '0.5', flat_amount: 0 },
      { up_to: 10000, unit_amount_decimal: '0.25', flat_amount: 100 },
      { up_to: null, unit_amount_decimal: '0.1', flat_amount: 0 },
    ];
    const graduated = await platform.call(CREATE, usagePrice({ model: 'GRADUATED', tiers }));
    expect(graduated.body.usage_model).toEqual({ model: 'GRADUATED', tiers: stored });
    const volume = await platform.call(CREATE, usagePrice({ model: 'VOLUME', tiers: [{ up_to: null, unit_amount_decimal: '2' }] }));
    expect(volume.body.usage_model).toEqual({ model: 'VOLUME', tiers: [{ up_to: null, unit_amount_decimal: '2', flat_amount: 0 }] });

    expect((await platform.call('/v2/product-prices/get', { id: graduated.body.id })).body).toEqual(graduated.body);
    const listed = await platform.call('/v2/product-prices/list', { filters: { billing_type: { operator: 'EQ', value: 'USAGE' } } });
    expect(listed.body.items).toEqual([volume.body, graduated.body, pack.body, perUnit.body]);
  });

  it('requires a meter, a model and a period on USAGE, an amount elsewhere, and refuses usage fields elsewhere', async () => {
    const bare = { product_id: productId, currency: 'EUR', billing_type: 'USAGE' };
    expect(await constraints(bare)).toEqual({
      billing_period_config: expect.objectContaining({ type: 'REQUIRED' }),
      meter_id: expect.objectContaining({ type: 'REQUIRED' }),
      usage_model: expect.objectContaining({ type: 'REQUIRED' }),
    });
    expect((await constraints(usagePrice({ model: 'PER_UNIT', unit_amount_decimal: '1' }, { amount: 100 }))).amount).toMatchObject({ type: 'INVALID' });
    const recurring = { product_id: productId, currency: 'EUR', billing_type: 'RECURRING', billing_period_config: MONTHLY };
    expect(await constraints(recurring)).toEqual({ amount: expect.objectContaining({ type: 'REQUIRED' }) });
    expect(await constraints({ ...recurring, amount: 100, meter_id: meterId, usage_model: { model: 'PER_UNIT', unit_amount_decimal: '1' } })).toEqual({
      meter_id: expect.objectContaining({ type: 'INVALID' }),
      usage_model: expect.objectContaining({ type: 'INVALID' }),
    });
    expect((await constraints({ product_id: productId, currency: 'EUR', amount: 1, billing_type: 'ONE_TIME', meter_id: meterId })).meter_id).toMatchObject({ type: 'INVALID' });
    expect((await constraints(usagePrice({ model: 'PER_UNIT', unit_amount_decimal: '1' }, { meter_id: 'meter_1' }))).meter_id).toMatchObject({ type: 'FORMAT' });
  });

  it('names the exact field of a bad model', async () => {
    const at = async (model: unknown) => Object.entries(await constraints(usagePrice(model))).map(([path, c]) => [path, (c as { type: string }).type]);
    const tier = (up_to: number | null, extra: Record<string, unknown> = {}) => ({ up_to, unit_amount_decimal: '1', ...extra });
    expect(await at({ model: 'GRADUATED', tiers: [tier(10), tier(20), tier(20), tier(null)] })).toEqual([['usage_model.tiers[2].up_to', 'INVALID']]);
    expect(await at({ model: 'VOLUME', tiers: [tier(10), tier(20)] })).toEqual([['usage_model.tiers[1].up_to', 'INVALID']]);
    expect(await at({ model: 'VOLUME', tiers: [tier(null), tier(null)] })).toEqual([['usage_model.tiers[0].up_to', 'INVALID']]);
    expect(await at({ model: 'GRADUATED', tiers: [tier(0), tier(null)] })).toEqual([['usage_model.tiers[0].up_to', 'MIN']]);
    expect(await at({ model: 'GRADUATED', tiers: [] })).toEqual([['usage_model.tiers', 'MIN']]);
    expect(await at({ model: 'GRADUATED', tiers: [...Array.from({ length: 10 }, (_, i) => tier(i + 1)), tier(null)] })).toEqual([['usage_model.tiers', 'MAX']]);
    expect(await at({ model: 'GRADUATED', tiers: [tier(5, { flat_amount: 1.5 }), tier(null, { colour: 'red' })] })).toEqual([
      ['usage_model.tiers[0].flat_amount', 'TYPE'],
      ['usage_model.tiers[1].colour', 'UNKNOWN_FIELD'],
    ]);
    for (const bad of ['-1', '1e-3', '.5', '0.0000000000001', '1000000000', 0.5]) {
      expect(await at({ model: 'PER_UNIT', unit_amount_decimal: bad })).toEqual([['usage_model.unit_amount_decimal', typeof bad === 'string' ? 'FORMAT' : 'TYPE']]);
    }
    expect(await at({ model: 'PACKAGE', package_size: 0, package_amount: 1 })).toEqual([['usage_model.package_size', 'MIN']]);
    expect(await at({ model: 'PACKAGE', package_size: 1 })).toEqual([['usage_model.package_amount', 'REQUIRED']]);
    expect(await at({ model: 'TIERED', tiers: [tier(null)] })).toEqual([['usage_model.model', 'ENUM']]);
    expect(await at({ unit_amount_decimal: '1' })).toEqual([['usage_model.model', 'REQUIRED']]);
    expect(await at({ model: 'PER_UNIT', unit_amount_decimal: '1', tiers: [] })).toEqual([['usage_model.tiers', 'UNKNOWN_FIELD']]);
  });

  it('takes only an ACTIVE meter of the account: 422 METER_NOT_FOUND', async () => {
    const archived = await meter({ status: 'ARCHIVED' });
    const elsewhere = await meter({ accountId: (await createAccount(platform.db, 'Other')).id });
    const model = { model: 'PER_UNIT', unit_amount_decimal: '1' };
    for (const [id, context] of [
      ['mtr_01jdzzzzzzzzzzzzzzzzzzzzzz', { field: 'meter_id', meter_id: 'mtr_01jdzzzzzzzzzzzzzzzzzzzzzz' }],
      [elsewhere, { field: 'meter_id', meter_id: elsewhere }],
      [archived, { field: 'meter_id', meter_id: archived, status: 'ARCHIVED' }],
    ] as const) {
      const res = await platform.call(CREATE, usagePrice(model, { meter_id: id }));
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'METER_NOT_FOUND', context });
    }
    expect(await platform.db.productPrice.count({ where: { meterId: { in: [archived, elsewhere] } } })).toBe(0);
  });
});
