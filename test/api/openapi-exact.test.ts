import { SURROGATE_MESSAGE } from '../../api/http/unstorable-characters';
import { subscriptions } from '../subscriptions/fixtures';
import { usePlatform } from '../support/platform';

/**
 * The OpenAPI document states what the server enforces (issue 16, item 5), so a client generated
 * from it (client/) sends only what the server takes, and schemathesis (npm run
 * test:schemathesis) finds no schema-valid request refused. These are the rules it had missed.
 */
const platform = usePlatform();
let document: any;

beforeAll(async () => {
  document = await (await fetch(`${platform.baseUrl}/openapi.json`)).json();
});

const bodyOf = (path: string) => document.paths[path].post.requestBody;
const schemaOf = (path: string) => bodyOf(path).content['application/json'].schema;
const matches = (pattern: string, value: string) => new RegExp(pattern, 'u').test(value);

describe('the OpenAPI document states every constraint the server enforces', () => {
  it('list operations take a missing body, and the document says so; others require theirs', async () => {
    // payment-instruments/list and customer-balance-transactions/list name their customer, so they are the lists whose body is required.
    const customerLists = ['/v2/payment-instruments/list', '/v2/customer-balance-transactions/list'];
    const lists = Object.keys(document.paths).filter((path) => (path.endsWith('/list') || path.endsWith('/list-item')) && !customerLists.includes(path));
    expect(lists).toHaveLength(16);
    for (const path of lists) {
      expect({ path, required: bodyOf(path).required }).toEqual({ path, required: false });
      const res = await platform.call(path, undefined, { rawBody: '' });
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    for (const path of customerLists) expect({ path, required: bodyOf(path).required }).toEqual({ path, required: true });
    expect(bodyOf('/v2/customers/get').required).toBe(true);
    expect(bodyOf('/v2/webhooks/list-deliveries').required).toBe(true);
  });

  it('ids carry their prefix as a pattern, bounded as the server bounds them', async () => {
    const id = schemaOf('/v2/customers/get').properties.id;
    expect(matches(id.pattern, 'cust_01jabc')).toBe(true);
    expect(matches(id.pattern, 'inv_01jabc')).toBe(false);
    expect(matches(id.pattern, 'cust_')).toBe(false);
    expect(matches(id.pattern, `cust_${'x'.repeat(60)}`)).toBe(false);
    expect((await platform.call('/v2/customers/get', { id: 'inv_01jabc' })).body.context.constraints.id.type).toBe('FORMAT');
    expect((await platform.call('/v2/customers/get', { id: 'cust_01jabc' })).status).toBe(404);
    // Characters are code points, as in JSON Schema: 59 beyond the BMP (118 UTF-16 units) fit.
    const astral = (count: number) => `cust_${'\u{1F60D}'.repeat(count)}`;
    expect(id.maxLength).toBe(64);
    expect(matches(id.pattern, astral(59))).toBe(true);
    expect((await platform.call('/v2/customers/get', { id: astral(59) })).status).toBe(404);
    expect(matches(id.pattern, astral(60))).toBe(false);
    expect((await platform.call('/v2/customers/get', { id: astral(60) })).body.context.constraints.id.type).toBe('FORMAT');
  });

  it('a body whose object is refined stays strict and states its "at least one of" rule', async () => {
    const update = schemaOf('/v2/antifraud-lists/update');
    expect(update.additionalProperties).toBe(false);
    expect(update.anyOf).toEqual([{ required: ['name'] }, { required: ['action'] }]);
    expect(schemaOf('/v2/webhooks/list-deliveries').anyOf).toEqual([{ required: ['endpoint_id'] }, { required: ['event_id'] }]);
  });

  it('the comma-separated IN form is a pattern of the values it takes', async () => {
    const status = schemaOf('/v2/customers/list').properties.filters.properties.status;
    const inBranch = status.oneOf.find((branch: any) => branch.properties.operator.const === 'IN');
    const joined = inBranch.properties.value.anyOf.find((branch: any) => branch.type === 'string');
    const inStatus = (value: string) => platform.call('/v2/customers/list', { filters: { status: { operator: 'IN', value } } });
    for (const [value, accepted] of [
      ['ACTIVE,INACTIVE', true],
      [' ACTIVE , INACTIVE ', true],
      ['ACTIVE,SLEEPING', false],
      ['ACTIVE,,INACTIVE', false],
      ['ACTIVE,', false],
    ] as const) {
      expect({ value, document: matches(joined.pattern, value), server: (await inStatus(value)).status === 200 }).toEqual({ value, document: accepted, server: accepted });
    }
    const channels = schemaOf('/v2/api-keys/list').properties.filters.properties.channel_id.oneOf.find((branch: any) => branch.properties.operator.const === 'IN');
    const channelList = channels.properties.value.anyOf.find((branch: any) => branch.type === 'string').pattern;
    expect(matches(channelList, 'chn_a, chn_b')).toBe(true);
    expect(matches(channelList, 'chn_a,chn_ ')).toBe(false);
    expect(matches(channelList, `chn_${'x'.repeat(61)}`)).toBe(false);
  });

  it('the Idempotency-Key header carries the pattern the server checks', () => {
    const header = document.paths['/v2/customers/create'].post.parameters.find((p: any) => p.name === 'Idempotency-Key');
    expect(matches(header.schema.pattern, 'order-4711')).toBe(true);
    expect(matches(header.schema.pattern, 'with space')).toBe(false);
    expect(matches(header.schema.pattern, 'x'.repeat(256))).toBe(false);
  });

  it('a string with U+0000 is refused as VALIDATION before it reaches PostgreSQL, and the document says so', async () => {
    for (const [path, body, field] of [
      ['/v2/customers/get', { id: 'cust_\u0000x' }, 'id'],
      ['/v2/settlements/get', { id: 'sttl_\u0000' }, 'id'],
      ['/v2/customers/create', { type: 'INDIVIDUAL', email: 'nul@example.com', metadata: { note: 'a\u0000b' } }, 'metadata.note'],
    ] as const) {
      const res = await platform.call(path, body);
      expect({ path, status: res.status, constraint: res.body.context?.constraints?.[field]?.type }).toEqual({ path, status: 400, constraint: 'FORMAT' });
    }
    expect(schemaOf('/v2/customers/get').properties.id.not).toEqual({ pattern: '\\u0000' });
  });

  it('an unpaired surrogate is refused as VALIDATION wherever it is (jsonb refuses it, text would store U+FFFD); a pair is stored as sent', async () => {
    for (const [body, field] of [
      [{ type: 'INDIVIDUAL', email: 'pair@example.com', metadata: { note: 'half \ud83d of a face' } }, 'metadata.note'],
      [{ type: 'INDIVIDUAL', email: 'pair@example.com', first_name: 'Ada\udc00' }, 'first_name'],
      [{ type: 'INDIVIDUAL', email: 'pair@example.com', metadata: { ['k\ud800']: 'v' } }, 'metadata.k\ud800'],
    ] as const) {
      const res = await platform.call('/v2/customers/create', body);
      expect({ status: res.status, constraint: res.body.context?.constraints?.[field] }).toEqual({ status: 400, constraint: { type: 'FORMAT', message: SURROGATE_MESSAGE } });
    }
    const created = await platform.call('/v2/customers/create', { type: 'INDIVIDUAL', email: 'pair@example.com', first_name: 'Ada \ud83d\ude00', metadata: { note: '\ud83d\ude00' } });
    expect(created.status).toBe(200);
    const read = await platform.call('/v2/customers/get', { id: created.body.id });
    expect(read.body).toMatchObject({ first_name: 'Ada 😀', metadata: { note: '😀' } });
  });

  it('a dunning schedule in fractions of a day, which the document allows, is answered 200 and lists (schemathesis found it)', async () => {
    const days = schemaOf('/v2/subscriptions/create').properties.settings.properties.dunning_retry_schedule_days;
    expect(days.items).toEqual({ type: 'number', exclusiveMinimum: 0 });
    const s = subscriptions(platform);
    const { customerId } = await s.payer();
    const created = await platform.call('/v2/subscriptions/create', {
      customer_id: customerId,
      line_items: [{ product_price_id: await s.price(1_000), quantity: 1 }],
      settings: { dunning_retry_schedule_days: [0.5, 2] },
    });
    expect({ status: created.status, days: created.body.settings?.dunning_retry_schedule_days }).toEqual({ status: 200, days: [0.5, 2] });
    const listed = await platform.call('/v2/subscriptions/list', {});
    expect(listed.status).toBe(200);
    expect(document.components.schemas.Subscription.properties.settings.properties.dunning_retry_schedule_days.items).toEqual({ type: 'number' });
  });

  it('a named collection method states what it refuses: a payment term when charged, a PAID trial when invoiced (schemathesis found it)', async () => {
    const rules = schemaOf('/v2/subscriptions/create').allOf ?? [];
    const when = (method: string) => rules.find((rule: any) => rule.if?.properties?.collection_method?.const === method && rule.if.required?.includes('collection_method'))?.then;
    // Open to the other properties, as a strict validator needs it said (test/api-reference/redocly-lint.test.ts).
    expect(when('CHARGE_AUTOMATICALLY')).toEqual({ properties: { settings: { not: { required: ['days_until_due'] } } }, additionalProperties: true });
    expect(when('SEND_INVOICE')).toEqual({ properties: { trial: { not: { properties: { type: { const: 'PAID' } }, required: ['type'] } } }, additionalProperties: true });
    const s = subscriptions(platform);
    const { customerId, instrumentId } = await s.payer();
    const line = { product_price_id: await s.price(1_000), quantity: 1 };
    const charged = await platform.call('/v2/subscriptions/create', { customer_id: customerId, payment_instrument_id: instrumentId, collection_method: 'CHARGE_AUTOMATICALLY', line_items: [line], settings: { days_until_due: 14 } });
    expect({ status: charged.status, refused: Object.keys(charged.body.context.constraints) }).toEqual({ status: 400, refused: ['settings.days_until_due'] });
    const invoiced = await platform.call('/v2/subscriptions/create', { customer_id: customerId, collection_method: 'SEND_INVOICE', line_items: [line], trial: { type: 'PAID', amount: 100 } });
    expect({ status: invoiced.status, refused: Object.keys(invoiced.body.context.constraints) }).toEqual({ status: 400, refused: ['collection_method'] });
  });
});
