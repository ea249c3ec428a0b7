import { ProviderRequestMismatch, type ChargeRequest } from '../../services/payments/providers/provider';
import { createProviderRegistry, PROVIDER_NAMES, SANDBOX_PROFILES, SANDBOX_PROVIDER_NAMES } from '../../services/payments/providers/registry';
import { SANDBOX_SCENARIOS } from '../../domain/cards';
import { DEFAULT_PROVIDERS } from '../../domain/routing';
import { createTestDatabase, type TestDatabase } from '../support/database';

let database: TestDatabase;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(() => database?.drop());

const card = (sandboxScenario: ChargeRequest['card']['sandboxScenario']) => ({
  instrumentId: 'pi_test',
  brand: 'VISA',
  sandboxScenario,
  provider: null,
  providerReference: null,
  providerCustomerReference: null,
});
const ours = { accountId: 'acct_test', paymentId: 'pay_test', invoiceId: null };

describe('sandbox providers', () => {
  it('registers every provider the default route names', () => {
    const registry = createProviderRegistry(database.db);
    expect([...registry.keys()]).toEqual([...PROVIDER_NAMES]);
    for (const name of DEFAULT_PROVIDERS) expect(registry.has(name)).toBe(true);
  });

  it('answers each scenario as docs/sandbox.md tabulates', () => {
    const table = Object.fromEntries(
      SANDBOX_SCENARIOS.map((s) => [s, SANDBOX_PROVIDER_NAMES.map((p) => SANDBOX_PROFILES[p].outcomeOf(s))]),
    );
    expect(table).toEqual({
      APPROVE: ['APPROVED', 'APPROVED'],
      HARD_DECLINE: ['HARD_DECLINED', 'HARD_DECLINED'],
      SOFT_DECLINE: ['SOFT_DECLINED', 'SOFT_DECLINED'],
      UNAVAILABLE: ['UNAVAILABLE', 'UNAVAILABLE'],
      TIMEOUT: ['TIMEOUT', 'TIMEOUT'],
      SOFT_DECLINE_ON_ALPHA: ['SOFT_DECLINED', 'APPROVED'],
      TIMEOUT_ON_ALPHA: ['TIMEOUT', 'APPROVED'],
    });
  });

  it('returns the recorded answer to a repeated key and refuses the key for another charge', async () => {
    const alpha = createProviderRegistry(database.db).get('sandbox-alpha')!;
    const request = { idempotencyKey: 'k-repeat', amount: 1_000, currency: 'USD', card: card('APPROVE'), ...ours };
    const first = await alpha.charge(request);
    expect(first).toEqual({ outcome: 'APPROVED', providerChargeId: expect.stringMatching(/^sbch_/), fee: 59 });
    // Even a card that would now be declined gets the recorded answer: the key decides.
    expect(await alpha.charge({ ...request, card: card('HARD_DECLINE') })).toEqual(first);
    expect(await alpha.lookup('k-repeat', 'acct_test')).toEqual(first);
    await expect(alpha.charge({ ...request, amount: 1_001 })).rejects.toBeInstanceOf(ProviderRequestMismatch);
    expect(await database.db.sandboxProviderCharge.count({ where: { idempotencyKey: 'k-repeat' } })).toBe(1);
  });

  it("answers UNAVAILABLE for another provider's card, which it holds no token of", async () => {
    const alpha = createProviderRegistry(database.db).get('sandbox-alpha')!;
    const stripeCard = { ...card(null), provider: 'stripe', providerReference: 'pm_x', providerCustomerReference: 'cus_x' };
    expect(await alpha.charge({ idempotencyKey: 'k-foreign', amount: 500, currency: 'EUR', card: stripeCard, ...ours })).toEqual({ outcome: 'UNAVAILABLE' });
    expect(await database.db.sandboxProviderCharge.count({ where: { idempotencyKey: 'k-foreign' } })).toBe(0);
  });

  it('keys its books per provider', async () => {
    const registry = createProviderRegistry(database.db);
    const request = { idempotencyKey: 'k-shared', amount: 1_000, currency: 'USD', card: card('APPROVE'), ...ours };
    const alpha = await registry.get('sandbox-alpha')!.charge(request);
    const beta = await registry.get('sandbox-beta')!.charge(request);
    expect(alpha).toMatchObject({ fee: 59 });
    expect(beta).toMatchObject({ fee: 50 });
    expect(alpha).not.toEqual(beta);
  });

  it('records declines with their code, and nothing for an outage or a timeout', async () => {
    const beta = createProviderRegistry(database.db).get('sandbox-beta')!;
    const charge = (key: string, scenario: Parameters<typeof card>[0]) =>
      beta.charge({ idempotencyKey: key, amount: 700, currency: 'EUR', card: card(scenario), ...ours });
    expect(await charge('k-hard', 'HARD_DECLINE')).toEqual({
      outcome: 'HARD_DECLINED',
      providerChargeId: expect.any(String),
      declineCode: 'do_not_honor',
      message: expect.any(String),
    });
    expect(await charge('k-soft', 'SOFT_DECLINE')).toMatchObject({ outcome: 'SOFT_DECLINED', declineCode: 'insufficient_funds' });
    expect(await charge('k-down', 'UNAVAILABLE')).toEqual({ outcome: 'UNAVAILABLE' });
    expect(await charge('k-slow', 'TIMEOUT')).toEqual({ outcome: 'TIMEOUT' });
    expect(await beta.lookup('k-down', 'acct_test')).toBeNull();
    expect(await beta.lookup('k-slow', 'acct_test')).toBeNull();
    const rows = await database.db.sandboxProviderCharge.findMany({ where: { provider: 'sandbox-beta', idempotencyKey: { in: ['k-hard', 'k-soft', 'k-down', 'k-slow'] } } });
    expect(rows.map((r) => [r.idempotencyKey, r.outcome, r.declineCode, r.fee]).sort()).toEqual([
      ['k-hard', 'HARD_DECLINED', 'do_not_honor', 0],
      ['k-soft', 'SOFT_DECLINED', 'insufficient_funds', 0],
    ]);
  });

  it('records one charge for concurrent requests with one key', async () => {
    const alpha = createProviderRegistry(database.db).get('sandbox-alpha')!;
    const request = { idempotencyKey: 'k-race', amount: 333, currency: 'USD', card: card('APPROVE'), ...ours };
    const answers = await Promise.all(Array.from({ length: 8 }, () => alpha.charge(request)));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(await database.db.sandboxProviderCharge.count({ where: { idempotencyKey: 'k-race' } })).toBe(1);
  });
});
