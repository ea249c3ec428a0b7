import { createChargeActivities, type ChargeInput } from '../../activities/charge';
import type { PaymentProvider } from '../../services/payments/providers/provider';
import { createProviderRegistry } from '../../services/payments/providers/registry';
import type { AntifraudField } from '../../domain/antifraud';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { booksOf, seedAccount, seedAntifraudItem, seedCustomer, seedInstrument } from './fixtures';

let database: TestDatabase;
let accountId: string;
let channelId: string;
const providerCalls: string[] = [];
let charge: (input: ChargeInput) => ReturnType<ReturnType<typeof createChargeActivities>['chargePayment']>;
let keys = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ accountId, channelIds: [channelId] } = await seedAccount(database.db));
  const real = createProviderRegistry(database.db);
  const spying = new Map(
    [...real].map(([name, provider]): [string, PaymentProvider] => [
      name,
      { name, lookup: (key, account) => provider.lookup(key, account), charge: (req) => (providerCalls.push(name), provider.charge(req)) },
    ]),
  );
  charge = createChargeActivities({ db: database.db, providers: spying }).chargePayment;
});

afterAll(() => database?.drop());

beforeEach(() => {
  providerCalls.length = 0;
});

/** A fresh customer and card per test, so one test's list items never match another's payment. */
async function subject() {
  const n = ++keys;
  const email = `Buyer.${n}@Example.com`;
  const customerId = await seedCustomer(database.db, { accountId, channelId, email });
  const instrument = await seedInstrument(database.db, { accountId, channelId, customerId, number: '4242424242424242', cardholderName: `Jane  Doe ${n}` });
  const ipAddress = `203.0.113.${n}`;
  const input: ChargeInput = {
    accountId,
    customerId,
    instrumentId: instrument.id,
    amount: 2_500,
    currency: 'EUR',
    idempotencyKey: `af-${n}`,
    ipAddress,
  };
  const values: Record<string, string> = {
    IP_ADDRESS: ipAddress,
    CUSTOMER_EMAIL: email.toUpperCase(),
    CUSTOMER_ID: customerId,
    CARDHOLDER: `jane doe ${n}`,
    CARD_ID: instrument.id,
    FINGERPRINT: instrument.fingerprint,
  };
  return { input, values };
}

describe('antifraud screening before any provider', () => {
  const cases: Array<[string, AntifraudField]> = [
    ['IP_ADDRESS', 'IP_ADDRESS'],
    ['CUSTOMER_EMAIL', 'CUSTOMER_EMAIL'],
    ['CUSTOMER_ID', 'CUSTOMER_ID'],
    ['CARDHOLDER', 'CARDHOLDER'],
    ['CARD_ID', 'CARD_ID'],
    ['FINGERPRINT', 'CARD_ID'],
  ];

  it.each(cases)('a BLOCK item on %s declines the payment and no provider is asked', async (valueOf, field) => {
    const { input, values } = await subject();
    const { listId, itemId } = await seedAntifraudItem(database.db, { accountId, field, action: 'BLOCK', value: values[valueOf]! });
    const summary = await charge(input);
    expect(summary).toMatchObject({ status: 'DECLINED', declineCode: 'antifraud_blocked', retryable: false });
    expect(summary.declineMessage).toContain(field);
    expect(summary.declineMessage).toContain(listId);
    expect(summary.declineMessage).toContain(itemId);
    expect(providerCalls).toEqual([]);
    expect(await booksOf(database.db, summary.paymentId)).toEqual([]);
    const payment = await database.db.payment.findUniqueOrThrow({ where: { id: summary.paymentId } });
    expect(payment.attempts).toEqual([]);
  });

  it('lets an ALLOW item override a BLOCK item', async () => {
    const { input, values } = await subject();
    await seedAntifraudItem(database.db, { accountId, field: 'CUSTOMER_EMAIL', action: 'BLOCK', value: values.CUSTOMER_EMAIL! });
    await seedAntifraudItem(database.db, { accountId, field: 'CUSTOMER_ID', action: 'ALLOW', value: values.CUSTOMER_ID! });
    expect(await charge(input)).toMatchObject({ status: 'SUCCEEDED', provider: 'sandbox-alpha' });
    expect(providerCalls).toEqual(['sandbox-alpha']);
  });

  it('ignores an expired BLOCK item', async () => {
    const { input, values } = await subject();
    await seedAntifraudItem(database.db, {
      accountId,
      field: 'IP_ADDRESS',
      action: 'BLOCK',
      value: values.IP_ADDRESS!,
      expiredAt: new Date(Date.now() - 60_000),
    });
    expect(await charge(input)).toMatchObject({ status: 'SUCCEEDED' });
  });

  it('does not screen an account with antifraud disabled', async () => {
    const { input, values } = await subject();
    await seedAntifraudItem(database.db, { accountId, field: 'CUSTOMER_ID', action: 'BLOCK', value: values.CUSTOMER_ID! });
    await database.db.account.update({ where: { id: accountId }, data: { antifraudEnabled: false } });
    try {
      expect(await charge(input)).toMatchObject({ status: 'SUCCEEDED' });
    } finally {
      await database.db.account.update({ where: { id: accountId }, data: { antifraudEnabled: true } });
    }
  });

  it('keeps a blocked payment blocked when the same key is sent again', async () => {
    const { input, values } = await subject();
    await seedAntifraudItem(database.db, { accountId, field: 'CUSTOMER_ID', action: 'BLOCK', value: values.CUSTOMER_ID! });
    const first = await charge(input);
    await database.db.antifraudListItem.deleteMany({ where: { accountId, fieldValue: values.CUSTOMER_ID! } });
    expect(await charge(input)).toEqual(first);
    expect(providerCalls).toEqual([]);
  });
});
