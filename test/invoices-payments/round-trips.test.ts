import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SecretCache } from '../../api/auth/secret-cache';
import { buildServer } from '../../api/http/server';
import { RateLimiter } from '../../api/rate-limit/token-bucket';
import { usePlatform } from '../support/platform';
import { countingDatabase, type QueryCount } from '../support/query-counter';
import { merchant } from './fixtures';

/**
 * The statements and transactions of one invoices/create → finalize → pay cycle (issue 13,
 * docs/benchmarks.md): an API on a counting pool of its own, with the secret cache production
 * uses, so authentication after the first request costs nothing here.
 */
describe('round trips of the invoice cycle', () => {
  const platform = usePlatform();
  let counting: ReturnType<typeof countingDatabase>;
  let server: FastifyInstance;
  let baseUrl: string;

  beforeAll(async () => {
    const [{ name }] = await platform.db.$queryRaw<Array<{ name: string }>>`SELECT current_database() AS name`;
    counting = countingDatabase(process.env.TEST_ADMIN_DATABASE_URL!.replace(/\/[^/]+$/, `/${name}`));
    server = buildServer({ db: counting.db, temporal: platform.env.client, rateLimiter: new RateLimiter(() => ({ ratePerSecond: 1e6, burst: 1e6 })), secretCache: new SecretCache(60_000) });
    await server.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await server?.close();
    await counting?.db.$disconnect();
  });

  async function post(path: string, body: unknown) {
    const response = await fetch(`${baseUrl}/v2/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${platform.rootSecret}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as any;
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  }

  async function cycle(customerId: string, instrumentId: string) {
    const draft = await counting.measure(() =>
      post('invoices/create', { customer_id: customerId, currency: 'EUR', line_items: [{ amount: 1_999, description: 'Bench', quantity: 2 }] }),
    );
    const finalized = await counting.measure(() => post('invoices/finalize', { id: draft.result.id }));
    const paid = await counting.measure(() => post('invoices/pay', { id: draft.result.id, payment_instrument_id: instrumentId }));
    expect(paid.result.invoice.status).toBe('PAID');
    const counts: Record<'create' | 'finalize' | 'pay', QueryCount> = { create: draft.count, finalize: finalized.count, pay: paid.count };
    return counts;
  }

  it('create and finalize commit one transaction each; pay commits its claim with its payment, the provider its books, and the settlement with the payment’s answer', async () => {
    const { customer, card } = merchant(platform);
    const customerId = await customer();
    const instrumentId = await card(customerId, '4242424242424242');
    await cycle(customerId, instrumentId);
    const counts = await cycle(customerId, instrumentId);
    console.log(Object.entries(counts).map(([operation, c]) => `${operation}: ${c.statements} statements, ${c.transactions} transactions`).join('\n'));
    // Issue 13 started from 11, 10 and 37 statements, and 1, 1 and 20 transactions.
    expect(counts.create).toMatchObject({ statements: 4, transactions: 1 });
    // finalize: the lock, then the invoice with its lines and live customer in one statement, the customer balance locked
    // (docs/customer-balance.md, "At finalization"), the update with its event in one statement.
    expect(counts.finalize).toMatchObject({ statements: 6, transactions: 1 });
    // pay: 18 statements in 10 transactions before its payment's creation joined the claim's transaction and its answer the settlement's (issue 45).
    expect(counts.pay.statements).toBeLessThanOrEqual(16);
    expect(counts.pay.transactions).toBe(3);
    // The provider is asked between the claim's commit and the settlement's BEGIN, in no transaction.
    const texts = counts.pay.texts.map((t) => t.trim());
    const providerCall = texts.findIndex((t) => /^INSERT INTO sandbox_provider_charges\b/.test(t));
    const claimCommit = texts.indexOf('COMMIT');
    const settlementBegin = texts.lastIndexOf('BEGIN');
    expect(claimCommit).toBeLessThan(providerCall);
    expect(providerCall).toBeLessThan(settlementBegin);
  });
});
