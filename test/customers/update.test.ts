import { createOperatorApiKey } from '../../scripts/operator/accounts';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

const nextYear = new Date().getUTCFullYear() + 1;

async function newCustomer(overrides: Record<string, unknown> = {}) {
  const res = await platform.call('/v2/customers/create', {
    type: 'INDIVIDUAL',
    email: 'grace@example.com',
    first_name: 'Grace',
    last_name: 'Hopper',
    phone: '+12025550143',
    merchant_customer_id: 'crm-7',
    address: { city: 'Arlington', country: 'USA', state: 'VA' },
    configuration: { default_billing_currency: 'USD', preferred_locales: ['en-US'] },
    metadata: { tier: 'gold', source: 'web' },
    ...overrides,
  });
  expect(res.status).toBe(200);
  return res.body;
}

const update = (body: Record<string, unknown>, path = 'update') => platform.call(`/v2/customers/${path}`, body);

async function tokenize(customerId: string) {
  const res = await platform.call('/v2/payment-instruments/tokenize', {
    customer_id: customerId,
    card: { number: '4242 4242 4242 4242', exp_month: 12, exp_year: nextYear },
  });
  expect(res.status).toBe(200);
  return res.body.id as string;
}

const eventsOf = async (customerId: string) =>
  (await platform.db.outboxEvent.findMany({ where: { eventType: 'CUSTOMER_UPDATED' }, orderBy: { id: 'asc' } })).filter(
    (e) => (e.data as { customer: { id: string } }).customer.id === customerId,
  );

describe('customers/update semantics', () => {
  it('changes only the fields sent and keeps the rest', async () => {
    const customer = await newCustomer();
    const res = await update({ id: customer.id, first_name: 'Amazing Grace', status: 'INACTIVE' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...customer, first_name: 'Amazing Grace', status: 'INACTIVE', updated_at: expect.any(String) });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(customer.updated_at));
    expect((await platform.call('/v2/customers/get', { id: customer.id })).body).toEqual(res.body);
  });

  it('clears nullable fields with null', async () => {
    const customer = await newCustomer();
    const res = await update({ id: customer.id, first_name: null, phone: null, merchant_customer_id: null, address: null, metadata: null });
    expect(res.status).toBe(200);
    for (const field of ['first_name', 'phone', 'merchant_customer_id', 'address', 'metadata']) expect(res.body).not.toHaveProperty(field);
    expect(res.body.last_name).toBe('Hopper');
    expect(res.body.email).toBe('grace@example.com');
  });

  it('normalises a written phone to E.164 on update and patch, and counts the same number as no change', async () => {
    const customer = await newCustomer();
    const updated = await update({ id: customer.id, phone: '+1 202-555-0188' });
    expect(updated.status).toBe(200);
    expect(updated.body.phone).toBe('+12025550188');
    const patched = await update({ id: customer.id, phone: '+49 (30) 123 456' }, 'patch');
    expect(patched.body.phone).toBe('+4930123456');
    const before = (await eventsOf(customer.id)).length;
    const same = await update({ id: customer.id, phone: '+49 30 123456' });
    expect(same.body).toEqual(patched.body);
    expect(await eventsOf(customer.id)).toHaveLength(before);
  });

  it('reads a national phone in the country of the address the customer has after the update, and keeps one it cannot read as written', async () => {
    const customer = await newCustomer();
    const american = await update({ id: customer.id, phone: '(202) 555-0188' });
    expect(american.body.phone).toBe('+12025550188');
    const moved = await update({ id: customer.id, phone: '030 1234567', address: { city: 'Berlin', country: 'DEU' } }, 'patch');
    expect(moved.body.phone).toBe('+49301234567');
    const unreadable = await update({ id: customer.id, phone: ' 030 12 ' });
    expect(unreadable.status).toBe(200);
    expect(unreadable.body.phone).toBe('030 12');
  });

  it('refuses null for a field that cannot be absent', async () => {
    const customer = await newCustomer();
    for (const [field, type] of [
      ['email', 'TYPE'],
      ['tax', 'TYPE'],
      ['status', 'ENUM'],
    ]) {
      const res = await update({ id: customer.id, [field!]: null });
      expect(res.status).toBe(400);
      expect(res.body.context.constraints[field!].type).toBe(type);
    }
  });

  it('changes configuration settings one by one, null clearing one or all', async () => {
    const customer = await newCustomer();
    const one = await update({ id: customer.id, configuration: { default_billing_currency: 'EUR' } });
    expect(one.body.configuration).toEqual({ default_billing_currency: 'EUR', preferred_locales: ['en-US'] });
    const cleared = await update({ id: customer.id, configuration: { preferred_locales: null } });
    expect(cleared.body.configuration).toEqual({ default_billing_currency: 'EUR' });
    const none = await update({ id: customer.id, configuration: null });
    expect(none.body).not.toHaveProperty('configuration');
    expect((await update({ id: customer.id, configuration: { default_billing_currency: 'eur' } })).status).toBe(400);
  });

  it('replaces address and metadata as a whole', async () => {
    const customer = await newCustomer();
    const res = await update({ id: customer.id, address: { country: 'CAN' }, metadata: { tier: 'silver' } });
    expect(res.body.address).toEqual({ country: 'CAN' });
    expect(res.body.metadata).toEqual({ tier: 'silver' });
  });

  it('answers at /v2/customers/patch as the same operation, with customers:update', async () => {
    const customer = await newCustomer();
    const res = await update({ id: customer.id, last_name: 'Murray' }, 'patch');
    expect(res.status).toBe(200);
    expect(res.body.last_name).toBe('Murray');

    const { secret } = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'u', permissions: ['customers:update'] });
    expect((await platform.call('/v2/customers/patch', { id: customer.id, last_name: 'H' }, { secret })).status).toBe(200);
    const denied = await createOperatorApiKey(platform.db, { accountId: platform.accountId, name: 'g', permissions: ['customers:get'] });
    const refused = await platform.call('/v2/customers/patch', { id: customer.id, last_name: 'H' }, { secret: denied.secret });
    expect(refused.status).toBe(403);
    expect(refused.body.context.required_permission).toBe('customers:update');

    const headers = { 'Idempotency-Key': 'patch-or-update' };
    const first = await platform.call('/v2/customers/update', { id: customer.id, last_name: 'Once' }, { headers });
    const replay = await platform.call('/v2/customers/patch', { id: customer.id, last_name: 'Once' }, { headers });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
  });

  it('updates business details of a BUSINESS customer field by field and refuses them for an INDIVIDUAL', async () => {
    const legal = { city: 'Toronto', country: 'CAN', line1: '1 Front St', state: 'ON', postal_code: 'M5J 2X5' };
    const company = await newCustomer({ type: 'BUSINESS', business_details: { name: 'Initech', legal_address: legal } });
    const renamed = await update({ id: company.id, business_details: { name: 'Initech Ltd' } });
    expect(renamed.body.business_details).toEqual({ name: 'Initech Ltd', legal_address: legal });
    const noState = await update({ id: company.id, business_details: { legal_address: { ...legal, state: undefined } } });
    expect(noState.status).toBe(200);
    expect(noState.body.business_details.legal_address).toEqual({ city: 'Toronto', country: 'CAN', line1: '1 Front St', postal_code: 'M5J 2X5' });
    const moved = await update({ id: company.id, business_details: { legal_address: { city: 'Paris', country: 'FRA', line1: '1 rue', postal_code: '75001' } } });
    expect(moved.body.business_details.legal_address).toEqual({ city: 'Paris', country: 'FRA', line1: '1 rue', postal_code: '75001' });
    const removed = await update({ id: company.id, business_details: { legal_address: null } });
    expect(removed.body.business_details).toEqual({ name: 'Initech Ltd' });

    const person = await newCustomer();
    const refused = await update({ id: person.id, business_details: { name: 'x' } });
    expect(refused.status).toBe(400);
    expect(refused.body.context.constraints.business_details.type).toBe('INVALID');
  });

  it('answers 404 for an unknown customer and 400 for a malformed id', async () => {
    expect((await update({ id: 'cust_unknown', first_name: 'x' })).status).toBe(404);
    expect((await update({ id: 'inv_1', first_name: 'x' })).body.context.constraints.id.type).toBe('FORMAT');
  });
});

describe('CustomerUpdated', () => {
  it('is recorded with the full customer when something changed, and not otherwise', async () => {
    const customer = await newCustomer();
    const res = await update({ id: customer.id, email: 'g.hopper@example.com' });
    const events = await eventsOf(customer.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ channelId: customer.channel_id, data: { customer: res.body } });

    const same = await update({ id: customer.id, email: 'g.hopper@example.com', metadata: { source: 'web', tier: 'gold' } });
    expect(same.body).toEqual(res.body);
    const nothing = await update({ id: customer.id });
    expect(nothing.body).toEqual(res.body);
    expect(await eventsOf(customer.id)).toHaveLength(1);

    expect((await update({ id: customer.id, configuration: { default_payment_instrument_id: 'pi_nope' } })).status).toBe(422);
    expect(await eventsOf(customer.id)).toHaveLength(1);
  });
});

describe('422 INVALID_DEFAULT_PAYMENT_INSTRUMENT', () => {
  it('accepts an ACTIVE instrument of the customer', async () => {
    const customer = await newCustomer();
    const instrument = await tokenize(customer.id);
    const res = await update({ id: customer.id, configuration: { default_payment_instrument_id: instrument } });
    expect(res.status).toBe(200);
    expect(res.body.configuration.default_payment_instrument_id).toBe(instrument);
  });

  it('refuses an unknown instrument, another customer’s, and one that is not ACTIVE', async () => {
    const customer = await newCustomer();
    const other = await newCustomer();
    const othersInstrument = await tokenize(other.id);
    const revoked = await tokenize(customer.id);
    expect((await platform.call('/v2/payment-instruments/revoke', { id: revoked })).status).toBe(200);

    for (const [id, status] of [
      ['pi_unknown', undefined],
      [othersInstrument, undefined],
      [revoked, 'REVOKED'],
    ] as const) {
      const res = await update({ id: customer.id, configuration: { default_payment_instrument_id: id } });
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('INVALID_DEFAULT_PAYMENT_INSTRUMENT');
      expect(res.body.context).toEqual({
        field: 'configuration.default_payment_instrument_id',
        default_payment_instrument_id: id,
        ...(status ? { status } : {}),
      });
    }
    const unchanged = await platform.call('/v2/customers/get', { id: customer.id });
    expect(unchanged.body.configuration).toEqual(customer.configuration);
  });
});

describe('tax registration validations', () => {
  const registration = { scheme: 'VAT', id: 'FR12345678901', country: 'FRA' };
  const manual = (status: string, at = '2026-03-01T10:00:00.000000Z') => ({ status, validated_at: at, source: 'MANUAL' });
  const vies = { status: 'VERIFIED', validated_at: '2026-02-01T09:00:00.000000Z', source: 'VIES' };

  /** The platform's VIES check writes validations straight to the record; so does this. */
  async function withViesValidation() {
    const customer = await newCustomer({ tax: { taxability: 'TAXABLE', registrations: [registration] } });
    await platform.db.customer.update({
      where: { id: customer.id },
      data: { tax: { taxability: 'TAXABLE', registrations: [{ ...registration, validation: vies }] } },
    });
    return customer;
  }

  const setRegistrations = (id: string, registrations: unknown[]) => update({ id, tax: { taxability: 'TAXABLE', registrations } });

  it('lets the merchant add and change MANUAL validations until one is VERIFIED', async () => {
    const customer = await newCustomer();
    const added = await setRegistrations(customer.id, [{ ...registration, validation: manual('UNVERIFIED') }]);
    expect(added.status).toBe(200);
    const verified = await setRegistrations(customer.id, [{ ...registration, validation: manual('VERIFIED', '2026-03-02T10:00:00Z') }]);
    expect(verified.status).toBe(200);
    expect(verified.body.tax.registrations[0].validation).toEqual(manual('VERIFIED', '2026-03-02T10:00:00Z'));

    const back = await setRegistrations(customer.id, [{ ...registration, validation: manual('UNVERIFIED') }]);
    expect(back.status).toBe(422);
    expect(back.body).toMatchObject({
      code: 'INVALID_TAX_REGISTRATION_VALIDATION_UPDATE',
      context: { field: 'tax.registrations[0].validation', validation: manual('VERIFIED', '2026-03-02T10:00:00Z') },
    });
    const redated = await setRegistrations(customer.id, [{ ...registration, validation: manual('VERIFIED', '2026-03-05T10:00:00Z') }]);
    expect(redated.body.code).toBe('INVALID_TAX_REGISTRATION_VALIDATION_UPDATE');
  });

  it('refuses a merchant-set VIES validation with INVALID_TAX_REGISTRATION_VALIDATION_SOURCE', async () => {
    const customer = await newCustomer({ tax: { taxability: 'TAXABLE', registrations: [registration] } });
    const res = await setRegistrations(customer.id, [{ ...registration, validation: vies }]);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'INVALID_TAX_REGISTRATION_VALIDATION_SOURCE',
      context: { field: 'tax.registrations[0].validation.source', source: 'VIES' },
    });
    expect((await platform.call('/v2/customers/get', { id: customer.id })).body.tax.registrations).toEqual([registration]);
  });

  it('keeps a VIES validation read-only but lets it be sent back unchanged or left out', async () => {
    const customer = await withViesValidation();
    const got = await platform.call('/v2/customers/get', { id: customer.id });
    expect(got.body.tax.registrations).toEqual([{ ...registration, validation: vies }]);

    const roundTrip = await update({ id: customer.id, tax: got.body.tax });
    expect(roundTrip.status).toBe(200);
    expect(roundTrip.body.tax.registrations).toEqual([{ ...registration, validation: vies }]);

    const leftOut = await update({ id: customer.id, tax: { taxability: 'EXEMPT', registrations: [registration] } });
    expect(leftOut.status).toBe(200);
    expect(leftOut.body.tax).toEqual({ taxability: 'EXEMPT', registrations: [{ ...registration, validation: vies }] });

    const overridden = await setRegistrations(customer.id, [{ ...registration, validation: manual('UNVERIFIED') }]);
    expect(overridden.status).toBe(422);
    expect(overridden.body.code).toBe('INVALID_TAX_REGISTRATION_VALIDATION_UPDATE');
    expect(overridden.body.context.validation).toEqual(vies);
  });

  it('keeps registrations when tax.registrations is left out, removes them with null', async () => {
    const customer = await withViesValidation();
    const kept = await update({ id: customer.id, tax: { taxability: 'EXEMPT' } });
    expect(kept.body.tax.registrations).toEqual([{ ...registration, validation: vies }]);
    const removed = await update({ id: customer.id, tax: { taxability: 'TAXABLE', registrations: null } });
    expect(removed.body.tax).toEqual({ taxability: 'TAXABLE' });
  });

  it('records the refusal under an Idempotency-Key and replays it without touching the customer', async () => {
    const customer = await newCustomer();
    const headers = { 'Idempotency-Key': 'vies-refusal' };
    const body = { id: customer.id, tax: { taxability: 'TAXABLE', registrations: [{ ...registration, validation: vies }] } };
    const first = await platform.call('/v2/customers/update', body, { headers });
    const again = await platform.call('/v2/customers/update', body, { headers });
    expect(first.status).toBe(422);
    expect(again.status).toBe(422);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await eventsOf(customer.id)).toHaveLength(0);
  });
});
