import { ApplicationFailure } from '@temporalio/common';
import { createActivities } from '../../activities';
import { createChargeActivities, type Attempt, type ChargeInput } from '../../activities/charge';
import type { PaymentProvider } from '../../services/payments/providers/provider';
import { createProviderRegistry, type ProviderRegistry } from '../../services/payments/providers/registry';
import { feeFor } from '../../services/payments/providers/sandbox-provider';
import { TEST_CARDS } from '../../domain/cards';
import { newId } from '../../domain/ids';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { booksOf, publishRouteTree, seedAccount, seedCustomer, seedInstrument } from './fixtures';

let database: TestDatabase;
let accountId: string;
let channelId: string;
let charge: (input: ChargeInput) => ReturnType<ReturnType<typeof createActivities>['chargePayment']>;
let keys = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ accountId, channelIds: [channelId] } = await seedAccount(database.db));
  charge = createActivities({ db: database.db }).chargePayment;
});

afterAll(() => database?.drop());

async function cardOf(number: string, options: { status?: string; country?: string; expYear?: number; expMonth?: number } = {}) {
  const customerId = await seedCustomer(database.db, { accountId, channelId, country: options.country });
  const instrument = await seedInstrument(database.db, { accountId, channelId, customerId, number, ...options });
  return { customerId, instrumentId: instrument.id };
}

function request(card: { customerId: string; instrumentId: string }, overrides: Partial<ChargeInput> = {}): ChargeInput {
  return { accountId, ...card, amount: 10_000, currency: 'USD', idempotencyKey: `charge-${++keys}`, ...overrides };
}

async function attemptsOf(paymentId: string): Promise<Attempt[]> {
  const payment = await database.db.payment.findUniqueOrThrow({ where: { id: paymentId } });
  return payment.attempts as unknown as Attempt[];
}

/** Counts the requests each provider receives, passing them on to the real sandbox. */
function counting(registry: ProviderRegistry) {
  const calls: string[] = [];
  const wrapped = new Map(
    [...registry].map(([name, provider]): [string, PaymentProvider] => [
      name,
      { name, lookup: (key, account) => provider.lookup(key, account), charge: (req) => (calls.push(name), provider.charge(req)) },
    ]),
  );
  return { calls, registry: wrapped as ProviderRegistry };
}

const ALPHA_FEE = feeFor(10_000, { basisPoints: 290, fixed: 30 });
const BETA_FEE = feeFor(10_000, { basisPoints: 250, fixed: 25 });

describe('every test card through the default route (sandbox-alpha, then sandbox-beta)', () => {
  const expected: Record<string, { status: string; provider?: string; fee?: number; declineCode?: string; retryable: boolean; steps: string[] }> = {
    '4242424242424242': { status: 'SUCCEEDED', provider: 'sandbox-alpha', fee: ALPHA_FEE, retryable: false, steps: ['sandbox-alpha APPROVED'] },
    '5555555555554444': { status: 'SUCCEEDED', provider: 'sandbox-alpha', fee: ALPHA_FEE, retryable: false, steps: ['sandbox-alpha APPROVED'] },
    '378282246310005': { status: 'SUCCEEDED', provider: 'sandbox-alpha', fee: ALPHA_FEE, retryable: false, steps: ['sandbox-alpha APPROVED'] },
    '4000000000000002': { status: 'DECLINED', provider: 'sandbox-alpha', declineCode: 'do_not_honor', retryable: false, steps: ['sandbox-alpha HARD_DECLINED'] },
    '4000000000009995': {
      status: 'DECLINED',
      declineCode: 'insufficient_funds',
      retryable: true,
      steps: ['sandbox-alpha SOFT_DECLINED', 'sandbox-beta SOFT_DECLINED'],
    },
    '4000000000000119': {
      status: 'FAILED',
      declineCode: 'providers_unavailable',
      retryable: true,
      steps: ['sandbox-alpha UNAVAILABLE', 'sandbox-beta UNAVAILABLE'],
    },
    '4000000000000101': {
      status: 'FAILED',
      declineCode: 'providers_unavailable',
      retryable: true,
      steps: ['sandbox-alpha TIMEOUT', 'sandbox-beta TIMEOUT'],
    },
    '4000000000003220': {
      status: 'SUCCEEDED',
      provider: 'sandbox-beta',
      fee: BETA_FEE,
      retryable: false,
      steps: ['sandbox-alpha SOFT_DECLINED', 'sandbox-beta APPROVED'],
    },
    '4000000000000077': {
      status: 'SUCCEEDED',
      provider: 'sandbox-beta',
      fee: BETA_FEE,
      retryable: false,
      steps: ['sandbox-alpha TIMEOUT', 'sandbox-beta APPROVED'],
    },
  };

  it('has an expectation for every documented test card', () => {
    expect(Object.keys(expected).sort()).toEqual(Object.keys(TEST_CARDS).sort());
  });

  it.each(Object.entries(expected))('%s', async (number, outcome) => {
    const summary = await charge(request(await cardOf(number)));
    expect(summary).toEqual({
      paymentId: expect.stringMatching(/^pay_/),
      status: outcome.status,
      retryable: outcome.retryable,
      ...(outcome.declineCode ? { declineCode: outcome.declineCode, declineMessage: expect.any(String) } : {}),
      ...(outcome.provider ? { provider: outcome.provider, providerChargeId: expect.stringMatching(/^sbch_/) } : {}),
      ...(outcome.fee !== undefined ? { fee: outcome.fee } : {}),
    });
    const attempts = await attemptsOf(summary.paymentId);
    expect(attempts.map((a) => `${a.provider} ${a.outcome}`)).toEqual(outcome.steps);

    // The books hold what was processed: declines and charges, never an outage or a timeout.
    const books = await booksOf(database.db, summary.paymentId);
    const processed = outcome.steps.filter((s) => !/UNAVAILABLE|TIMEOUT/.test(s));
    expect(books.map((b) => `${b.provider} ${b.outcome}`)).toEqual(processed);
    expect(books.map((b) => b.idempotencyKey)).toEqual(processed.map((s) => `${summary.paymentId}/${s.split(' ')[0]}`));
    const charged = books.filter((b) => b.outcome === 'APPROVED');
    expect(charged.length).toBe(outcome.status === 'SUCCEEDED' ? 1 : 0);
    if (summary.providerChargeId && outcome.status === 'SUCCEEDED') expect(charged[0]!.id).toBe(summary.providerChargeId);
  });

  it('stops at a hard decline without asking the next provider', async () => {
    const { calls, registry } = counting(createProviderRegistry(database.db));
    const summary = await createChargeActivities({ db: database.db, providers: registry }).chargePayment(request(await cardOf('4000000000000002')));
    expect(summary).toMatchObject({ status: 'DECLINED', declineCode: 'do_not_honor', retryable: false });
    expect(calls).toEqual(['sandbox-alpha']);
  });

  it('records the timeout code on attempts that timed out and were not charged', async () => {
    const summary = await charge(request(await cardOf('4000000000000077')));
    const [alpha] = await attemptsOf(summary.paymentId);
    expect(alpha).toEqual({ provider: 'sandbox-alpha', outcome: 'TIMEOUT', timed_out: true, code: 'provider_timeout', at: expect.any(String) });
  });
});

describe('fees', () => {
  it('rounds the percentage half up in integer arithmetic', () => {
    const alpha = { basisPoints: 290, fixed: 30 };
    const beta = { basisPoints: 250, fixed: 25 };
    expect(feeFor(10_000, alpha)).toBe(320);
    expect(feeFor(500, alpha)).toBe(45); // 14.5 → 15
    expect(feeFor(50, alpha)).toBe(31); // 1.45 → 1
    expect(feeFor(1, alpha)).toBe(30); // 0.029 → 0
    expect(feeFor(20, beta)).toBe(26); // 0.5 → 1
    expect(feeFor(19, beta)).toBe(25); // 0.475 → 0
    expect(feeFor(2_147_483_647, alpha)).toBe(62_277_056); // 62,277,025.763 → 62,277,026
    expect(feeFor(2_147_483_647, beta)).toBe(53_687_116); // 53,687,091.175 → 53,687,091
  });

  it('records the fee of the provider that charged on the payment and in its books', async () => {
    const alpha = await charge(request(await cardOf('4242424242424242'), { amount: 500 }));
    expect(alpha.fee).toBe(45);
    expect((await booksOf(database.db, alpha.paymentId))[0]!.fee).toBe(45);
    const beta = await charge(request(await cardOf('4000000000003220'), { amount: 60 }));
    expect(beta.fee).toBe(27); // 1.5 → 2, + 25
    expect((await database.db.payment.findUniqueOrThrow({ where: { id: beta.paymentId } })).fee).toBe(27);
  });
});

describe('instrument checks', () => {
  it('never charges a revoked instrument', async () => {
    const { calls, registry } = counting(createProviderRegistry(database.db));
    const summary = await createChargeActivities({ db: database.db, providers: registry }).chargePayment(
      request(await cardOf('4242424242424242', { status: 'REVOKED' })),
    );
    expect(summary).toMatchObject({ status: 'DECLINED', declineCode: 'instrument_not_active', retryable: false });
    expect(summary.declineMessage).toContain('REVOKED');
    expect(calls).toEqual([]);
    expect(await booksOf(database.db, summary.paymentId)).toEqual([]);
  });

  it('declines an instrument of another customer', async () => {
    const card = await cardOf('4242424242424242');
    const other = await cardOf('4242424242424242');
    const summary = await charge(request({ customerId: card.customerId, instrumentId: other.instrumentId }));
    expect(summary).toMatchObject({ status: 'DECLINED', declineCode: 'instrument_not_found', retryable: false });
    expect(await booksOf(database.db, summary.paymentId)).toEqual([]);
  });

  it('declines a card past its expiry month', async () => {
    const summary = await charge(request(await cardOf('4242424242424242', { expMonth: 1, expYear: 2020 })));
    expect(summary).toMatchObject({ status: 'DECLINED', declineCode: 'instrument_expired' });
  });

  it('refuses an amount that is not a positive integer, or an unknown currency, without a payment', async () => {
    const card = await cardOf('4242424242424242');
    for (const amount of [0, -5, 1.5, 2_147_483_648]) {
      const failure = await charge(request(card, { amount })).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ApplicationFailure);
      expect(failure).toMatchObject({ type: 'INVALID_AMOUNT', nonRetryable: true });
    }
    await expect(charge(request(card, { currency: 'XYZ' }))).rejects.toMatchObject({ type: 'INVALID_CURRENCY', nonRetryable: true });
    expect(await database.db.payment.count({ where: { instrumentId: card.instrumentId } })).toBe(0);
  });
});

describe('idempotency of the charge path', () => {
  it('returns the same payment for a repeated key and charges once', async () => {
    const input = request(await cardOf('4242424242424242'));
    const first = await charge(input);
    const second = await charge(input);
    expect(second).toEqual(first);
    expect(await database.db.payment.count({ where: { idempotencyKey: input.idempotencyKey } })).toBe(1);
    expect(await booksOf(database.db, first.paymentId)).toHaveLength(1);
  });

  it('charges once for concurrent requests with one key, asking each provider of the cascade once', async () => {
    const input = request(await cardOf('4000000000003220'));
    const { calls, registry } = counting(createProviderRegistry(database.db));
    const concurrent = createChargeActivities({ db: database.db, providers: registry }).chargePayment;
    const summaries = await Promise.all(Array.from({ length: 6 }, () => concurrent(input)));
    expect(calls).toEqual(['sandbox-alpha', 'sandbox-beta']);
    expect(new Set(summaries.map((s) => JSON.stringify(s))).size).toBe(1);
    expect(summaries[0]).toMatchObject({ status: 'SUCCEEDED', provider: 'sandbox-beta' });
    expect(await database.db.payment.count({ where: { idempotencyKey: input.idempotencyKey } })).toBe(1);
    const books = await booksOf(database.db, summaries[0]!.paymentId);
    expect(books.map((b) => `${b.provider} ${b.outcome}`)).toEqual(['sandbox-alpha SOFT_DECLINED', 'sandbox-beta APPROVED']);
    expect((await attemptsOf(summaries[0]!.paymentId)).map((a) => a.provider)).toEqual(['sandbox-alpha', 'sandbox-beta']);
  });

  it('refuses a key reused for another amount', async () => {
    const input = request(await cardOf('4242424242424242'));
    await charge(input);
    await expect(charge({ ...input, amount: input.amount + 1 })).rejects.toMatchObject({ type: 'IDEMPOTENCY_KEY_REUSED', nonRetryable: true });
  });
});

describe('crash safety', () => {
  /** A registry whose `name` provider runs `fault` instead of answering, once. */
  function faulty(name: string, fault: (real: PaymentProvider, req: Parameters<PaymentProvider['charge']>[0]) => ReturnType<PaymentProvider['charge']>) {
    const real = createProviderRegistry(database.db);
    let tripped = false;
    const registry = new Map(real);
    const provider = real.get(name)!;
    registry.set(name, {
      name,
      lookup: (key, account) => provider.lookup(key, account),
      charge: (req) => {
        if (tripped) return provider.charge(req);
        tripped = true;
        return fault(provider, req);
      },
    });
    return registry as ProviderRegistry;
  }

  it('resumes a cascade that crashed before the second provider answered', async () => {
    const input = request(await cardOf('4000000000003220'));
    const crashing = faulty('sandbox-beta', () => Promise.reject(new Error('worker killed')));
    await expect(createChargeActivities({ db: database.db, providers: crashing }).chargePayment(input)).rejects.toThrow('worker killed');
    const pending = await database.db.payment.findFirstOrThrow({ where: { idempotencyKey: input.idempotencyKey } });
    expect(pending.status).toBe('PENDING');
    expect((pending.attempts as unknown as Attempt[]).map((a) => a.outcome)).toEqual(['SOFT_DECLINED']);

    const resumed = await charge(input);
    expect(resumed).toMatchObject({ paymentId: pending.id, status: 'SUCCEEDED', provider: 'sandbox-beta' });
    expect((await attemptsOf(pending.id)).map((a) => `${a.provider} ${a.outcome}`)).toEqual(['sandbox-alpha SOFT_DECLINED', 'sandbox-beta APPROVED']);
    expect(await booksOf(database.db, pending.id)).toHaveLength(2);
  });

  it('does not charge again when the crash came after the provider charged', async () => {
    const input = request(await cardOf('4242424242424242'));
    const crashing = faulty('sandbox-alpha', async (real, req) => {
      await real.charge(req);
      throw new Error('connection reset after the charge');
    });
    await expect(createChargeActivities({ db: database.db, providers: crashing }).chargePayment(input)).rejects.toThrow('connection reset');
    const resumed = await charge(input);
    const books = await booksOf(database.db, resumed.paymentId);
    expect(books).toHaveLength(1);
    expect(resumed).toMatchObject({ status: 'SUCCEEDED', provider: 'sandbox-alpha', providerChargeId: books[0]!.id });
  });

  it('takes a timed-out request the provider did process as the result, without cascading', async () => {
    const input = request(await cardOf('4242424242424242'));
    const lostAnswer = faulty('sandbox-alpha', async (real, req) => {
      await real.charge(req);
      return { outcome: 'TIMEOUT' };
    });
    const { calls, registry } = counting(lostAnswer);
    const summary = await createChargeActivities({ db: database.db, providers: registry }).chargePayment(input);
    expect(summary).toMatchObject({ status: 'SUCCEEDED', provider: 'sandbox-alpha' });
    expect(calls).toEqual(['sandbox-alpha']);
    expect(await attemptsOf(summary.paymentId)).toEqual([
      { provider: 'sandbox-alpha', outcome: 'APPROVED', timed_out: true, provider_charge_id: summary.providerChargeId, at: expect.any(String) },
    ]);
  });
});

describe('routing of charges', () => {
  let routed: { accountId: string; channelIds: [string, string] };
  const chargeIn = async (channel: string, number: string, overrides: Partial<ChargeInput> & { country?: string } = {}) => {
    const { country, ...rest } = overrides;
    const customerId = await seedCustomer(database.db, { accountId: routed.accountId, channelId: channel, country });
    const instrument = await seedInstrument(database.db, { accountId: routed.accountId, channelId: channel, customerId, number });
    return charge({ ...request({ customerId, instrumentId: instrument.id }), accountId: routed.accountId, ...rest });
  };

  beforeAll(async () => {
    routed = await seedAccount(database.db);
    await publishRouteTree(database.db, routed.accountId, null, {
      rules: [
        { name: 'euro', match: { currencies: ['EUR'] }, providers: ['sandbox-beta', 'sandbox-alpha'] },
        { name: 'small', match: { amount: { min: 100, max: 1000 } }, providers: ['sandbox-beta'] },
        { name: 'amex', match: { card_brands: ['AMEX'] }, providers: ['sandbox-beta'] },
        { name: 'germany', match: { customer_countries: ['DEU'] }, providers: ['sandbox-beta'] },
      ],
      default_providers: ['sandbox-alpha'],
    });
    // A configuration without a published version routes nothing: channel 0 falls back to the account-wide one.
    const now = new Date();
    await database.db.routingConfig.create({
      data: { id: newId('routingConfig'), accountId: routed.accountId, channelId: routed.channelIds[0], name: 'draft only', createdAt: now, updatedAt: now },
    });
    await publishRouteTree(database.db, routed.accountId, routed.channelIds[1], {
      rules: [],
      default_providers: [],
    });
  });

  it('routes by currency, in the cascade order of the rule', async () => {
    expect(await chargeIn(routed.channelIds[0], '4242424242424242', { currency: 'EUR' })).toMatchObject({ provider: 'sandbox-beta' });
    const cascaded = await chargeIn(routed.channelIds[0], '4000000000009995', { currency: 'EUR' });
    expect((await attemptsOf(cascaded.paymentId)).map((a) => a.provider)).toEqual(['sandbox-beta', 'sandbox-alpha']);
    expect(await chargeIn(routed.channelIds[0], '4242424242424242', { currency: 'USD' })).toMatchObject({ provider: 'sandbox-alpha' });
  });

  it('routes by amount, min inclusive and max exclusive', async () => {
    const providerAt = async (amount: number) => (await chargeIn(routed.channelIds[0], '4242424242424242', { amount })).provider;
    expect(await providerAt(99)).toBe('sandbox-alpha');
    expect(await providerAt(100)).toBe('sandbox-beta');
    expect(await providerAt(999)).toBe('sandbox-beta');
    expect(await providerAt(1000)).toBe('sandbox-alpha');
  });

  it('routes by card brand', async () => {
    expect(await chargeIn(routed.channelIds[0], '378282246310005')).toMatchObject({ provider: 'sandbox-beta' });
    expect(await chargeIn(routed.channelIds[0], '5555555555554444')).toMatchObject({ provider: 'sandbox-alpha' });
  });

  it('routes by customer country; a customer without an address matches no country rule', async () => {
    expect(await chargeIn(routed.channelIds[0], '4242424242424242', { country: 'DEU' })).toMatchObject({ provider: 'sandbox-beta' });
    expect(await chargeIn(routed.channelIds[0], '4242424242424242', { country: 'FRA' })).toMatchObject({ provider: 'sandbox-alpha' });
    expect(await chargeIn(routed.channelIds[0], '4242424242424242')).toMatchObject({ provider: 'sandbox-alpha' });
  });

  it('prefers the published configuration of the channel; an empty route declines with route_not_found', async () => {
    const summary = await chargeIn(routed.channelIds[1], '4242424242424242', { currency: 'EUR' });
    expect(summary).toMatchObject({ status: 'DECLINED', declineCode: 'route_not_found', retryable: false });
    expect(await booksOf(database.db, summary.paymentId)).toEqual([]);
  });
});
