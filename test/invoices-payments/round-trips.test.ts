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
    const counts: Record<string, QueryCount> = {};
    const draft = await counting.measure(() =>
      post('invoices/create', { customer_id: customerId, currency: 'EUR', line_items: [{ amount: 1_999, description: 'Bench', quantity: 2 }] }),
    );
    counts.create = draft.count;
    counts.finalize = (await counting.measure(() => post('invoices/finalize', { id: draft.result.id }))).count;
    const paid = await counting.measure(() => post('invoices/pay', { id: draft.result.id, payment_instrument_id: instrumentId }));
    counts.pay = paid.count;
    expect(paid.result.invoice.status).toBe('PAID');
    return counts;
  }

  it('create, finalize and pay each commit one transaction of few statements; the charge adds one short claim and one record', async () => {
    const { customer, card } = merchant(platform);
    const customerId = await customer();
    const instrumentId = await card(customerId, '4242424242424242');
    await cycle(customerId, instrumentId);
    const counts = await cycle(customerId, instrumentId);
    const table = Object.entries(counts).map(([operation, c]) => `${operation}: ${c.statements} statements, ${c.transactions} transactions\n  ${c.texts.map((t) => t.replace(/\s+/g, ' ').slice(0, 140)).join('\n  ')}`);
    console.log(table.join('\n'));
  });
});
