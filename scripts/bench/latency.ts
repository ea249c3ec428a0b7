import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'pg';
import { createDatabase } from '../../prisma/client';
import { applyPendingMigrations } from '../db/migrations';
import { createAccount, createChannel, createOperatorApiKey } from '../operator/accounts';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { freePort } from '../net/free-port';
import { apiClient, bareGet } from './api-client';
import { seedPayers } from './payers';
import { seedActiveSubscription } from './subscription-seed';
import { API_POOL_SIZE, startApiUnderTest, type ApiUnderTest } from './processes';
import { perOperation, StatementCounter, STATEMENT_COUNTING_SETTINGS, type PerOperation } from './statement-counts';

/**
 * `npm run bench:latency`: one request at a time against `api/main.ts` (started as the other
 * benches start it), N sequential requests of each operation (`BENCH_CYCLES`, default 200), p50
 * and p99 per operation with its statements, transactions and rows written, beside a bare
 * `SELECT 1` round trip over a `pg` pool of the API's size and a bare HTTP round trip (`GET /health`,
 * which reads nothing) to the same API with the same client, in the same run. invoices/preview is
 * timed on an ACTIVE subscription of 5 taxed lines: its next cycle, and a quantity change.
 */
const ROOT = resolve(__dirname, '../..');
const CYCLES = Number(process.env.BENCH_CYCLES ?? 200);
const WARM_UP = 30;

export interface Timing {
  name: string;
  latenciesMs: number[];
  counts?: PerOperation;
}

export function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(times: number, step: (n: number) => Promise<void>): Promise<number[]> {
  const latencies: number[] = [];
  for (let n = 0; n < times; n++) {
    const started = performance.now();
    await step(n);
    latencies.push(performance.now() - started);
  }
  return latencies;
}

/**
 * This bench's operations, one request at a time against `api`, acting as a payer and an ACTIVE
 * subscription of 5 lines made in the given account and channel: WARM_UP rounds, then CYCLES
 * requests of each, with their statements when `counter` is given.
 */
export async function latencyOperations(
  databaseUrl: string,
  access: { accountId: string; channelId: string },
  api: ApiUnderTest,
  counter?: StatementCounter,
): Promise<Timing[]> {
  const db = createDatabase(databaseUrl, 2);
  const [payer] = await seedPayers(db, access.accountId, access.channelId, 1);
  const { secret } = await createOperatorApiKey(db, { accountId: access.accountId, name: 'bench' });
  const subscription = await seedActiveSubscription(db, { ...access, ...payer! }, [1_000, 2_500, 4_900, 9_900, 19_900]);
  await db.$disconnect();
  const post = apiClient(`http://127.0.0.1:${api.port}`, secret);
  const newInvoice = () =>
    post('invoices/create', { customer_id: payer!.customerId, currency: 'EUR', line_items: [{ amount: 1_999, description: 'Bench', quantity: 2 }] });
  const pay = (id: string) => post('invoices/pay', { id, payment_instrument_id: payer!.instrumentId });
  const previewNext = () => post('invoices/preview', { subscription_id: subscription.id });
  const previewUpdate = () =>
    post('invoices/preview', { subscription_id: subscription.id, subscription_update: { line_items: { update: [{ id: subscription.lineItems[0]!.id, quantity: 3 }] } } });

  for (let n = 0; n < WARM_UP; n++) {
    const draft = await newInvoice();
    await post('invoices/get', { id: draft.id });
    await post('customers/get', { id: payer!.customerId });
    await post('invoices/finalize', { id: draft.id });
    await pay(draft.id);
    await previewNext();
    await previewUpdate();
  }

  const ids: string[] = [];
  const phases: Array<[string, (n: number) => Promise<void>]> = [
    ['customers/get', async () => void (await post('customers/get', { id: payer!.customerId }))],
    ['invoices/create', async () => void ids.push((await newInvoice()).id)],
    ['invoices/get', async (n) => void (await post('invoices/get', { id: ids[n] }))],
    ['invoices/finalize', async (n) => void (await post('invoices/finalize', { id: ids[n] }))],
    [
      'invoices/pay',
      async (n) => {
        const paid = await pay(ids[n]!);
        if (paid.invoice.status !== 'PAID') throw new Error(`pay left ${paid.invoice.status}`);
      },
    ],
    [
      'invoices/preview',
      async () => {
        if ((await previewNext()).next_invoice?.line_items.length !== 5) throw new Error('the preview lost lines');
      },
    ],
    ['preview (update)', async () => void (await previewUpdate())],
  ];
  const timings: Timing[] = [];
  await counter?.settle();
  let before = await counter?.snapshot();
  for (const [name, step] of phases) {
    const latenciesMs = await timed(CYCLES, step);
    if (!counter) {
      timings.push({ name, latenciesMs });
      continue;
    }
    await counter.settle();
    const after = await counter.snapshot();
    timings.push({ name, latenciesMs, counts: perOperation(before!, after, CYCLES) });
    before = after;
  }
  return timings;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-latency-'));
  const pgPort = await freePort();
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: pgPort, persistent: false, settings: STATEMENT_COUNTING_SETTINGS });
  let api: ApiUnderTest | undefined;
  let pool: Pool | undefined;
  try {
    await ensureDatabase(postgres.adminUrl, 'bench');
    const databaseUrl = postgres.urlFor('bench');
    await applyPendingMigrations(databaseUrl);
    const db = createDatabase(databaseUrl, 2);
    const account = await createAccount(db, 'bench');
    const channel = await createChannel(db, account.id, 'bench');
    await db.$disconnect();
    const counter = await StatementCounter.create(databaseUrl);

    api = await startApiUnderTest(ROOT, databaseUrl);
    const timings = await latencyOperations(databaseUrl, { accountId: account.id, channelId: channel.id }, api, counter);
    if (process.env.BENCH_STATEMENTS) console.log((await counter.topStatements()).join('\n'));

    pool = new Pool({ connectionString: databaseUrl, max: API_POOL_SIZE });
    await timed(WARM_UP, async () => void (await pool!.query('SELECT 1')));
    const bare: Timing = { name: 'bare SELECT 1', latenciesMs: await timed(CYCLES, async () => void (await pool!.query('SELECT 1'))) };
    // The HTTP floor: the same client and server, a route that touches nothing (no key, no database).
    const health = bareGet(`http://127.0.0.1:${api.port}`);
    await timed(WARM_UP, () => health('/health'));
    const bareHttp: Timing = { name: 'bare GET /health', latenciesMs: await timed(CYCLES, () => health('/health')) };

    const p50 = (t: Timing) => percentile([...t.latenciesMs].sort((a, b) => a - b), 50);
    const p99 = (t: Timing) => percentile([...t.latenciesMs].sort((a, b) => a - b), 99);
    console.log('');
    console.log(`one request at a time, ${CYCLES} sequential requests per operation (sandbox providers, no Temporal):`);
    console.log('  operation            p50 ms   p99 ms   statements  transactions  rows written   (per request)');
    for (const t of [...timings, bare, bareHttp]) {
      const c = t.counts;
      console.log(
        `  ${t.name.padEnd(18)} ${p50(t).toFixed(2).padStart(8)} ${p99(t).toFixed(2).padStart(8)}` +
          (c ? `   ${c.statements.toFixed(2).padStart(10)}  ${c.transactions.toFixed(2).padStart(12)}  ${c.rowsWritten.toFixed(2).padStart(12)}` : ''),
      );
    }
    const read = timings.find((t) => t.name === 'customers/get')!;
    console.log(`ratio bare SELECT 1 / customers/get (p50): ${(p50(bare) / p50(read)).toFixed(3)}`);
  } finally {
    await pool?.end();
    await api?.stop();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
