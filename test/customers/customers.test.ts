import { createOperatorApiKey } from '../../scripts/operator/accounts';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

const individual = (overrides: Record<string, unknown> = {}) => ({ type: 'INDIVIDUAL', email: 'ada@example.com', ...overrides });

const business = (legalAddress: Record<string, unknown> | undefined, overrides: Record<string, unknown> = {}) => ({
  type: 'BUSINESS',
  email: 'billing@acme.example',
  business_details: { name: 'Acme GmbH', ...(legalAddress ? { legal_address: legalAddress } : {}) },
  ...overrides,
});

const create = (body: unknown, secret?: string) => platform.call('/v2/customers/create', body, { secret });

async function constraintOf(body: unknown, path: string) {
  const res = await create(body);
  expect(res.status).toBe(400);
  expect(res.body.code).toBe('VALIDATION');
  return res.body.context.constraints[path];
}

async function keyFor(channelIds: string[]): Promise<string> {
  const key = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'scoped', channelIds });
  return key.secret;
}

describe('customers/create', () => {
  it('creates an INDIVIDUAL with every field and returns it as get does', async () => {
    const res = await create(
      individual({
        first_name: 'Ada',
        last_name: 'Lovelace',
        phone: '+442071234567',
        merchant_customer_id: 'crm-1',
        address: { city: 'London', country: 'GBR', line1: '12 St James Sq', postal_code: 'SW1Y 4JH' },
        tax: { taxability: 'EXEMPT' },
        configuration: { default_billing_currency: 'GBP', preferred_locales: ['en-gb', 'fr'] },
        metadata: { segment: 'vip' },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^cust_/),
      type: 'INDIVIDUAL',
      channel_id: platform.channelIds[0],
      email: 'ada@example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '+442071234567',
      merchant_customer_id: 'crm-1',
      address: { city: 'London', country: 'GBR', line1: '12 St James Sq', postal_code: 'SW1Y 4JH' },
      tax: { taxability: 'EXEMPT' },
      status: 'ACTIVE',
      configuration: { default_billing_currency: 'GBP', preferred_locales: ['en-GB', 'fr'] },
      metadata: { segment: 'vip' },
      created_at: expect.stringMatching(/\.\d{6}Z$/),
      updated_at: res.body.created_at,
    });
    const got = await platform.call('/v2/customers/get', { id: res.body.id });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('defaults tax to TAXABLE and status to ACTIVE, and leaves absent fields out', async () => {
    const res = await create(individual());
    expect(res.body).toEqual({
      id: expect.any(String),
      type: 'INDIVIDUAL',
      channel_id: platform.channelIds[0],
      email: 'ada@example.com',
      tax: { taxability: 'TAXABLE' },
      status: 'ACTIVE',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
  });

  it('requires type and email, and refuses an unknown type or field', async () => {
    expect(await constraintOf({ email: 'a@b.example' }, 'type')).toMatchObject({ type: 'REQUIRED' });
    expect(await constraintOf({ type: 'ROBOT', email: 'a@b.example' }, 'type')).toMatchObject({ type: 'ENUM' });
    expect(await constraintOf({ type: 'INDIVIDUAL' }, 'email')).toMatchObject({ type: 'REQUIRED' });
    expect(await constraintOf(individual({ nickname: 'x' }), 'nickname')).toMatchObject({ type: 'UNKNOWN_FIELD' });
    expect(await constraintOf(individual({ business_details: { name: 'x' } }), 'business_details')).toMatchObject({ type: 'INVALID' });
  });

  it.each(['not-an-email', 'a@', '@example.com', 'a b@example.com'])('refuses the e-mail %p', async (email) => {
    expect(await constraintOf(individual({ email }), 'email')).toMatchObject({ type: 'FORMAT' });
  });

  it.each([
    ['0044207', '0044207'],
    ['442071234567', '442071234567'],
    ['  (555) 123-4567 ', '(555) 123-4567'],
    ['+0441234', '+0441234'],
    ['+1 555 CALL NOW', '+1 555 CALL NOW'],
    ['+1 212-555-0123 ext. 12', '+1 212-555-0123 ext. 12'],
    ['+1 (555 123-4567', '+1 (555 123-4567'],
  ])('keeps the phone %p, which is no number it can read, as written and trimmed: %p', async (written, stored) => {
    const res = await create(individual({ phone: written }));
    expect(res.status).toBe(200);
    expect(res.body.phone).toBe(stored);
  });

  it('refuses a blank phone and one over 40 characters', async () => {
    expect(await constraintOf(individual({ phone: '   ' }), 'phone')).toMatchObject({ type: 'MIN' });
    expect(await constraintOf(individual({ phone: `+1 ${'2'.repeat(40)}` }), 'phone')).toMatchObject({ type: 'MAX' });
  });

  it.each([
    ['+1 (212) 555.0123', undefined, '+12125550123'],
    ['+44 (0)20 7946 0958', undefined, '+442079460958'],
    ['+49/30/123456', 'FRA', '+4930123456'],
    ['030 1234567', 'DEU', '+49301234567'],
    ['(212) 555-0123', 'USA', '+12125550123'],
    ['07911 123456', 'GBR', '+447911123456'],
  ])('stores and shows the phone %p with address country %p as %p (E.164)', async (written, country, e164) => {
    const res = await create(individual({ phone: written, ...(country ? { address: { country } } : {}) }));
    expect(res.status).toBe(200);
    expect(res.body.phone).toBe(e164);
    const row = await platform.db.customer.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.phone).toBe(e164);
  });

  it('keeps as written a national number that is no valid number of the address country (full metadata, not lengths only)', async () => {
    // 0157 starts a German mobile number of 11 digits; this one has 10 after the 0 prefix's digits and is no number.
    const res = await create(individual({ phone: '01574824325', address: { country: 'DEU' } }));
    expect(res.body.phone).toBe('01574824325');
    const national = await create(individual({ phone: '030 1234567' }));
    expect(national.body.phone).toBe('030 1234567');
  });

  it('validates address countries against ISO 3166 alpha-3', async () => {
    for (const country of ['DE', 'deu', 'XXX', 'UK', 'EUR']) {
      expect(await constraintOf(individual({ address: { country } }), 'address.country')).toMatchObject({ type: 'ENUM' });
    }
    const ok = await create(individual({ address: { country: 'DEU' } }));
    expect(ok.status).toBe(200);
    expect(ok.body.address).toEqual({ country: 'DEU' });
  });

  it('validates the billing currency against ISO 4217', async () => {
    for (const currency of ['usd', 'US', 'ABC', 'XAU', 'HRK']) {
      const constraint = await constraintOf(individual({ configuration: { default_billing_currency: currency } }), 'configuration.default_billing_currency');
      expect(constraint).toMatchObject({ type: 'ENUM' });
    }
    for (const currency of ['JPY', 'KWD', 'EUR', 'XOF']) {
      const res = await create(individual({ configuration: { default_billing_currency: currency } }));
      expect(res.body.configuration).toEqual({ default_billing_currency: currency });
    }
  });

  it('validates preferred locales as BCP 47 and stores their canonical form', async () => {
    expect(await constraintOf(individual({ configuration: { preferred_locales: ['en_US'] } }), 'configuration.preferred_locales[0]')).toMatchObject({
      type: 'FORMAT',
    });
    expect(
      await constraintOf(individual({ configuration: { preferred_locales: ['de', 'not a tag'] } }), 'configuration.preferred_locales[1]'),
    ).toMatchObject({ type: 'FORMAT' });
    expect(await constraintOf(individual({ configuration: { preferred_locales: ['en-US', 'en-us'] } }), 'configuration.preferred_locales')).toMatchObject({
      type: 'INVALID',
    });
    const res = await create(individual({ configuration: { preferred_locales: ['zh-hant-tw', 'DE-ch', 'sr-Latn'] } }));
    expect(res.body.configuration.preferred_locales).toEqual(['zh-Hant-TW', 'de-CH', 'sr-Latn']);
  });

  it('enforces the metadata limits', async () => {
    const tooMany = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
    expect(await constraintOf(individual({ metadata: tooMany }), 'metadata')).toMatchObject({ type: 'MAX' });
    expect(await constraintOf(individual({ metadata: { ['k'.repeat(41)]: 'v' } }), `metadata.${'k'.repeat(41)}`)).toMatchObject({ type: 'MAX' });
    expect(await constraintOf(individual({ metadata: { note: 'x'.repeat(501) } }), 'metadata.note')).toMatchObject({ type: 'MAX' });
    for (const value of [null, { nested: 'x' }, ['a']]) {
      expect(await constraintOf(individual({ metadata: { count: value } }), 'metadata.count')).toMatchObject({ type: 'TYPE' });
    }
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, 'v'.repeat(500)]));
    expect((await create(individual({ metadata: fifty }))).status).toBe(200);
  });

  it('takes metadata values that are strings, numbers or booleans, and answers them as sent', async () => {
    const metadata = { plan: 'gold', seats: 12, ratio: 0.25, negative: -3, vip: true, trial: false, empty: '' };
    const res = await create(individual({ metadata }));
    expect(res.status).toBe(200);
    expect(res.body.metadata).toEqual(metadata);
    expect((await platform.call('/v2/customers/get', { id: res.body.id })).body.metadata).toEqual(metadata);
    const [event] = (await platform.db.outboxEvent.findMany({ where: { eventType: 'CUSTOMER_CREATED' } })).filter(
      (e) => (e.data as { customer: { id: string } }).customer.id === res.body.id,
    );
    expect((event!.data as { customer: { metadata: unknown } }).customer.metadata).toEqual(metadata);
    const updated = await platform.call('/v2/customers/update', { id: res.body.id, metadata: { seats: 13, vip: false } });
    expect(updated.body.metadata).toEqual({ seats: 13, vip: false });
  });

  it('counts characters as code points, as the OpenAPI document\'s maxLength does', async () => {
    // Each of these is one character and two UTF-16 units.
    const astral = (count: number) => '\u{1F60D}'.repeat(count);
    const fits = await create(individual({ first_name: astral(100), metadata: { [astral(40)]: astral(500) } }));
    expect(fits.status).toBe(200);
    expect(fits.body.first_name).toBe(astral(100));
    expect(fits.body.metadata).toEqual({ [astral(40)]: astral(500) });
    expect(await constraintOf(individual({ first_name: astral(101) }), 'first_name')).toMatchObject({ type: 'MAX' });
    expect(await constraintOf(individual({ metadata: { [astral(41)]: 'v' } }), `metadata.${astral(41)}`)).toMatchObject({ type: 'MAX' });
    expect(await constraintOf(individual({ metadata: { note: astral(501) } }), 'metadata.note')).toMatchObject({ type: 'MAX' });
  });
});

describe('BUSINESS customers and the legal address shapes', () => {
  const withState = { city: 'Austin', country: 'USA', line1: '1 Main St', state: 'TX', postal_code: '78701' };
  const plain = { city: 'Berlin', country: 'DEU', line1: 'Unter den Linden 1', postal_code: '10117' };

  it('accepts the address-with-state shape for a listed country', async () => {
    const res = await create(business(withState));
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('BUSINESS');
    expect(res.body.business_details).toEqual({ name: 'Acme GmbH', legal_address: withState });
  });

  it('takes a legal address without a state in every country, the listed ones too (section 2.2: the plain shape is for any country)', async () => {
    for (const country of ['AUS', 'BRA', 'CAN', 'CHN', 'IND', 'KOR', 'MEX', 'MYS', 'NZL', 'USA']) {
      const { state: _state, ...withoutState } = { ...withState, country };
      const res = await create(business(withoutState));
      expect({ country, status: res.status, legal_address: res.body.business_details?.legal_address }).toEqual({ country, status: 200, legal_address: withoutState });
    }
  });

  it('accepts the plain shape for any other country, with or without a state', async () => {
    const res = await create(business(plain));
    expect(res.status).toBe(200);
    expect(res.body.business_details.legal_address).toEqual(plain);
    const withRegion = await create(business({ ...plain, country: 'ITA', state: 'RM', line2: 'Scala B' }));
    expect(withRegion.status).toBe(200);
    expect(withRegion.body.business_details.legal_address).toEqual({ ...plain, country: 'ITA', state: 'RM', line2: 'Scala B' });
  });

  it('requires city, country, line1 and postal_code in either shape, and an alpha-3 country', async () => {
    for (const field of ['city', 'country', 'line1', 'postal_code']) {
      const { [field]: _left, ...address } = plain as Record<string, string>;
      expect(await constraintOf(business(address), `business_details.legal_address.${field}`)).toMatchObject({ type: 'REQUIRED' });
    }
    expect(await constraintOf(business({ ...plain, country: 'DE' }), 'business_details.legal_address.country')).toMatchObject({ type: 'ENUM' });
    expect(await constraintOf(business({ ...plain, zip: '1' }), 'business_details.legal_address.zip')).toMatchObject({ type: 'UNKNOWN_FIELD' });
  });

  it('takes a BUSINESS customer without business_details (section 2.2), and requires a name when they are sent', async () => {
    const res = await create({ type: 'BUSINESS', email: 'a@b.example' });
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('BUSINESS');
    expect(res.body).not.toHaveProperty('business_details');
    expect((await platform.call('/v2/customers/get', { id: res.body.id })).body).toEqual(res.body);
    expect(await constraintOf({ type: 'BUSINESS', email: 'a@b.example', business_details: {} }, 'business_details.name')).toMatchObject({
      type: 'REQUIRED',
    });
    const named = await create(business(undefined));
    expect(named.body.business_details).toEqual({ name: 'Acme GmbH' });
  });

  it('gives business_details to a BUSINESS customer created without, by an update that names it', async () => {
    const res = await create({ type: 'BUSINESS', email: 'later@b.example' });
    const unnamed = await platform.call('/v2/customers/update', { id: res.body.id, business_details: { legal_address: plain } });
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.context.constraints['business_details.name']).toMatchObject({ type: 'REQUIRED' });
    const named = await platform.call('/v2/customers/update', { id: res.body.id, business_details: { name: 'Later Ltd', legal_address: plain } });
    expect(named.status).toBe(200);
    expect(named.body.business_details).toEqual({ name: 'Later Ltd', legal_address: plain });
  });
});

describe('tax registrations on create', () => {
  const registration = { scheme: 'VAT', id: 'de123456789', country: 'DEU' };

  it('stores registrations, numbers in capitals, with a MANUAL validation', async () => {
    const validation = { status: 'VERIFIED', validated_at: '2026-01-02T03:04:05.000000Z', source: 'MANUAL' };
    const res = await create(individual({ tax: { taxability: 'TAXABLE', registrations: [{ ...registration, validation }] } }));
    expect(res.status).toBe(200);
    expect(res.body.tax).toEqual({ taxability: 'TAXABLE', registrations: [{ ...registration, id: 'DE123456789', validation }] });
  });

  it.each(['DE 123 456 789', 'de.123.456.789', 'DE-123-456-789', ' DE 123.456-789 '])('stores the registration number %p without its separators', async (id) => {
    const res = await create(individual({ tax: { taxability: 'TAXABLE', registrations: [{ ...registration, id }] } }));
    expect(res.status).toBe(200);
    expect(res.body.tax.registrations).toEqual([{ ...registration, id: 'DE123456789' }]);
  });

  it('counts a number written with separators as the same registration as without', async () => {
    const twice = { taxability: 'TAXABLE', registrations: [registration, { ...registration, id: 'DE 123 456 789' }] };
    expect(await constraintOf(individual({ tax: twice }), 'tax.registrations')).toMatchObject({ type: 'INVALID' });
  });

  it('refuses a VIES validation: only the platform sets those', async () => {
    const validation = { status: 'VERIFIED', validated_at: '2026-01-02T03:04:05.000000Z', source: 'VIES' };
    const before = await platform.db.customer.count();
    const res = await create(individual({ tax: { taxability: 'TAXABLE', registrations: [{ ...registration, validation }] } }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'INVALID_TAX_REGISTRATION_VALIDATION_SOURCE',
      context: { field: 'tax.registrations[0].validation.source', source: 'VIES' },
    });
    expect(await platform.db.customer.count()).toBe(before);
  });

  it('refuses duplicates, a wrong scheme, a malformed number and a future validation date', async () => {
    const twice = { taxability: 'TAXABLE', registrations: [registration, { ...registration, id: 'DE123456789' }] };
    expect(await constraintOf(individual({ tax: twice }), 'tax.registrations')).toMatchObject({ type: 'INVALID' });
    expect(
      await constraintOf(individual({ tax: { taxability: 'TAXABLE', registrations: [{ ...registration, scheme: 'GST' }] } }), 'tax.registrations[0].scheme'),
    ).toMatchObject({ type: 'ENUM' });
    for (const id of ['DE_123', 'DE/123', 'D', 'DE 1234567890123456789']) {
      expect(
        await constraintOf(individual({ tax: { taxability: 'TAXABLE', registrations: [{ ...registration, id }] } }), 'tax.registrations[0].id'),
      ).toMatchObject({ type: 'FORMAT' });
    }
    const future = { status: 'VERIFIED', validated_at: '2999-01-01T00:00:00Z', source: 'MANUAL' };
    expect(
      await constraintOf(
        individual({ tax: { taxability: 'TAXABLE', registrations: [{ ...registration, validation: future }] } }),
        'tax.registrations[0].validation.validated_at',
      ),
    ).toMatchObject({ type: 'MAX' });
    expect(await constraintOf(individual({ tax: { registrations: [] } }), 'tax.taxability')).toMatchObject({ type: 'REQUIRED' });
  });

  it('refuses a default payment instrument: a new customer has none', async () => {
    const res = await create(individual({ configuration: { default_payment_instrument_id: 'pi_01jabc' } }));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'INVALID_DEFAULT_PAYMENT_INSTRUMENT',
      context: { default_payment_instrument_id: 'pi_01jabc' },
    });
  });
});

describe('CustomerCreated in the outbox', () => {
  it('is written with the customer and its channel, and not for a refused create', async () => {
    const res = await create(individual({ email: 'outbox@example.com', channel_id: platform.channelIds[1] }));
    const events = await platform.db.outboxEvent.findMany({ where: { eventType: 'CUSTOMER_CREATED' } });
    const mine = events.filter((e) => (e.data as { customer: { id: string } }).customer.id === res.body.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ accountId: platform.accountId, channelId: platform.channelIds[1], data: { customer: res.body } });
    expect(mine[0]!.occurredAt.toISOString()).toBe(new Date(res.body.created_at).toISOString());

    const count = await platform.db.outboxEvent.count();
    expect((await create(individual({ configuration: { default_payment_instrument_id: 'pi_x1' } }))).status).toBe(422);
    expect((await create(individual({ email: 'nope' }))).status).toBe(400);
    expect(await platform.db.outboxEvent.count()).toBe(count);
  });

  it('replays a create under the same Idempotency-Key without a second customer or event', async () => {
    const headers = { 'Idempotency-Key': 'create-once-1' };
    const first = await platform.call('/v2/customers/create', individual({ email: 'once@example.com' }), { headers });
    const events = await platform.db.outboxEvent.count();
    const again = await platform.call('/v2/customers/create', individual({ email: 'once@example.com' }), { headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await platform.db.customer.count({ where: { email: 'once@example.com' } })).toBe(1);
    expect(await platform.db.outboxEvent.count()).toBe(events);
  });
});

describe('channels', () => {
  it('creates in the named channel, the key’s only channel, or the account default', async () => {
    const named = await create(individual({ channel_id: platform.channelIds[2] }));
    expect(named.body.channel_id).toBe(platform.channelIds[2]);
    const single = await create(individual(), await keyFor([platform.channelIds[1]]));
    expect(single.body.channel_id).toBe(platform.channelIds[1]);
    const fallback = await create(individual());
    expect(fallback.body.channel_id).toBe(platform.channelIds[0]);
  });

  it('answers 404 for a customer in a channel the key cannot reach', async () => {
    const other = await create(individual({ channel_id: platform.channelIds[2] }));
    const secret = await keyFor([platform.channelIds[0]]);
    const res = await platform.call('/v2/customers/get', { id: other.body.id }, { secret });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('NOT_FOUND');
    const update = await platform.call('/v2/customers/update', { id: other.body.id, first_name: 'X' }, { secret });
    expect(update.status).toBe(404);
    const own = await create(individual(), secret);
    expect((await platform.call('/v2/customers/get', { id: own.body.id }, { secret })).status).toBe(200);
  });

  it('answers 404 when an account-level key names another channel than the customer’s', async () => {
    const customer = await create(individual({ channel_id: platform.channelIds[1] }));
    expect((await platform.call('/v2/customers/get', { id: customer.body.id, channel_id: platform.channelIds[2] })).status).toBe(404);
    expect((await platform.call('/v2/customers/get', { id: customer.body.id, channel_id: platform.channelIds[1] })).status).toBe(200);
  });

  it('makes a multi-channel key name its channel, and refuses a channel outside it', async () => {
    const secret = await keyFor([platform.channelIds[0], platform.channelIds[1]]);
    const missing = await create(individual(), secret);
    expect(missing.status).toBe(400);
    expect(missing.body.context.constraints.channel_id.type).toBe('REQUIRED');
    const created = await create(individual({ channel_id: platform.channelIds[1] }), secret);
    expect(created.body.channel_id).toBe(platform.channelIds[1]);
    const get = await platform.call('/v2/customers/get', { id: created.body.id }, { secret });
    expect(get.status).toBe(400);
    const got = await platform.call('/v2/customers/get', { id: created.body.id, channel_id: platform.channelIds[1] }, { secret });
    expect(got.status).toBe(200);
    const outside = await create(individual({ channel_id: platform.channelIds[2] }), secret);
    expect(outside.status).toBe(403);
    expect((await platform.call('/v2/customers/list', {}, { secret })).status).toBe(400);
  });

  it('refuses an unknown channel for an account-level key with 422 CHANNEL_NOT_FOUND', async () => {
    const res = await create(individual({ channel_id: 'chn_doesnotexist' }));
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('CHANNEL_NOT_FOUND');
  });
});

describe('the OpenAPI document states no rule the server dropped', () => {
  it('no state rule, no phone format, VAT ids with separators, metadata values of three types, business_details optional', async () => {
    const document: any = await (await fetch(`${platform.baseUrl}/openapi.json`)).json();
    const create = document.paths['/v2/customers/create'].post.requestBody.content['application/json'].schema;
    const legalAddress = create.properties.business_details.properties.legal_address;
    expect(legalAddress).not.toHaveProperty('if');
    expect(legalAddress).not.toHaveProperty('then');
    expect(legalAddress.required).toEqual(['city', 'country', 'line1', 'postal_code']);
    expect(create.properties.phone.pattern).toBe('\\S');
    const vatId = create.properties.tax.properties.registrations.items.properties.id;
    expect(new RegExp(vatId.pattern, 'u').test('DE 123.456-789')).toBe(true);
    expect(new RegExp(vatId.pattern, 'u').test('DE_123')).toBe(false);
    expect(create.properties.metadata.additionalProperties.anyOf.map((branch: { type: string }) => branch.type).sort()).toEqual(['boolean', 'number', 'string']);
    expect(JSON.stringify(create.oneOf ?? [])).not.toContain('"required":["business_details"]');
    expect(document.components.schemas.BusinessCustomer.required).not.toContain('business_details');
  });
});
