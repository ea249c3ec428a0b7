import { appendBalanceTransaction, readBalance, readBalances } from '../../services/customer-balance/append-transaction';
import { findLedgerDisagreements } from '../../services/customer-balance/ledger-check';
import { checkBalances, setProrationCredit } from '../../scripts/operator/customer-balance';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { seedAccount, seedCustomer } from '../payments/fixtures';

/** docs/customer-balance.md, "The ledger": appends serialise on the balance row and chain their ending balances. */
let database: TestDatabase;
let accountId: string;
let channelId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ accountId, channelIds: [channelId] } = await seedAccount(database.db));
});

const newCustomer = () => seedCustomer(database.db, { accountId, channelId });

afterAll(() => database?.drop());

const now = new Date('2026-11-24T10:00:00.000Z');

function append(customerId: string, amount: number, currency = 'USD') {
  return database.db.$transaction((tx) =>
    appendBalanceTransaction(tx, { accountId, customerId, currency, amount, type: 'ADJUSTMENT', description: 'test', now }),
  );
}

describe('the customer balance ledger', () => {
  it('chains ending balances per (customer, currency) and the balance is the ledger sum', async () => {
    const customerId = await newCustomer();
    const first = await append(customerId, -1_000);
    const second = await append(customerId, 250);
    const euros = await append(customerId, -70, 'EUR');
    expect([first.sequence, first.endingBalance]).toEqual([1, -1_000]);
    expect([second.sequence, second.endingBalance]).toEqual([2, -750]);
    expect([euros.sequence, euros.endingBalance]).toEqual([1, -70]);
    expect(first.id).toMatch(/^cbtx_/);
    expect(await readBalance(database.db, { customerId, currency: 'USD' })).toBe(-750);
    expect(await readBalances(database.db, customerId)).toEqual({ EUR: -70, USD: -750 });
    expect(await findLedgerDisagreements(database.db, { accountId, customerId })).toEqual([]);
  });

  it('serialises 40 concurrent appends: no sequence forks, the chain and the sum agree', async () => {
    const customerId = await newCustomer();
    const amounts = Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? 17 : -(i + 1)));
    await Promise.all(amounts.map((amount) => append(customerId, amount)));
    const rows = await database.db.customerBalanceTransaction.findMany({ where: { customerId }, orderBy: { sequence: 'asc' } });
    expect(rows.map((row) => row.sequence)).toEqual(amounts.map((_, i) => i + 1));
    let running = 0;
    for (const row of rows) expect(row.endingBalance).toBe((running += row.amount));
    expect(await readBalance(database.db, { customerId, currency: 'USD' })).toBe(amounts.reduce((a, b) => a + b, 0));
    expect(await findLedgerDisagreements(database.db, { accountId, customerId })).toEqual([]);
  });

  it('refuses a movement that would leave the integer range and leaves the balance as it was', async () => {
    const customerId = await newCustomer();
    await append(customerId, 2_000_000_000);
    await expect(append(customerId, 200_000_000)).rejects.toMatchObject({ code: 'BALANCE_OUT_OF_RANGE' });
    expect(await readBalance(database.db, { customerId, currency: 'USD' })).toBe(2_000_000_000);
    expect(await findLedgerDisagreements(database.db, { accountId, customerId })).toEqual([]);
  });

  it('reports a stored balance that drifted from its ledger', async () => {
    const customerId = await newCustomer();
    await append(customerId, -500);
    await database.db.$executeRaw`UPDATE customer_balances SET balance = -600 WHERE customer_id = ${customerId}`;
    await database.db.$executeRaw`UPDATE customer_balance_transactions SET ending_balance = -400 WHERE customer_id = ${customerId}`;
    expect(await findLedgerDisagreements(database.db, { accountId, customerId })).toEqual([
      { customerId, currency: 'USD', storedBalance: -600, ledgerSum: -500, storedLastSequence: 1, ledgerCount: 1, brokenLinks: 1 },
    ]);
  });

  it('operator commands: check-balances lists what disagrees, set-proration-credit takes the two destinations only', async () => {
    const customerId = await newCustomer();
    await append(customerId, -10);
    await database.db.$executeRaw`UPDATE customer_balances SET last_sequence = 5 WHERE customer_id = ${customerId}`;
    expect((await checkBalances(database.db, accountId)).map((d) => d.customerId)).toContain(customerId);
    expect(await setProrationCredit(database.db, accountId, 'REFUND')).toEqual({ id: accountId, proration_credit: 'REFUND' });
    expect((await database.db.account.findUniqueOrThrow({ where: { id: accountId } })).prorationCredit).toBe('REFUND');
    await expect(setProrationCredit(database.db, accountId, 'CASH')).rejects.toThrow(/CUSTOMER_BALANCE, REFUND/);
    await expect(setProrationCredit(database.db, 'acct_nobody', 'REFUND')).rejects.toThrow(/does not exist/);
  });
});
