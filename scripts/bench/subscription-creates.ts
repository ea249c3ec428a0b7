import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { newId } from '../../domain/ids';
import { initialState, scheduleOf } from '../../domain/subscriptions/initial-state';
import { createDatabase } from '../../prisma/client';
import { startSubscriptionWorkflow } from '../../services/subscriptions/workflow-client';
import { applyPendingMigrations } from '../db/migrations';
import { freePort } from '../net/free-port';
import { createAccount, createChannel, createOperatorApiKey } from '../operator/accounts';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { apiClient } from './api-client';
import { seedPayers } from './payers';
import { startApiUnderTest, type ApiUnderTest } from './processes';
import { addSpent, cpuPerOperation, readGroupCpu, type GroupCpuSpent, type ProcessGroups } from './process-group-cpu';
import { formatPerOperation, perOperation, StatementCounter, STATEMENT_COUNTING_SETTINGS } from './statement-counts';
import { benchTemporalFromEnv, benchTemporalLabel, startBenchTemporal } from './temporal-server';

/**
 * `npm run bench:creates [N]`: what `subscriptions/create` costs on its own. N creates through
 * the API (`api/main.ts` in its own process; a customer with a card, one monthly price, charged
 * automatically), `BENCH_CONCURRENCY` (16, as bench:renewals creates) at a time, against a
 * Temporal server with no worker polling, so the first invoices wait and nothing else competes
 * for the machine. Beside it, in the same run on the same server, the ceiling: N bare
 * `StartWorkflowExecution` calls at the same concurrency, since every create starts its
 * subscription's workflow before it commits (docs/subscriptions.md, "Create"). The ceiling is
 * the same start a create sends (startSubscriptionWorkflow with the state such a create
 * decides: the same id, arguments, search attributes and summary, so the server writes the
 * same); the minimal start the bench measured until 2026-11-29 (no search attributes, no
 * summary) is printed beside it for the record. The three run in turns of N / `BENCH_ROUNDS`
 * (8) each, so a load that other processes put on the machine meanwhile weighs on all three
 * alike. Printed: creates per second, p50 / p99,
 * statements and transactions per create, CPU per create by process (the API, the Temporal
 * server, PostgreSQL, this client), the starts per second, and last the ratio creates / the
 * create's own start. bench:renewals measures the creates with the worker charging their first
 * invoices on the same cores.
 */
const ROOT = resolve(__dirname, '../..');
const N = Number(process.argv[2] ?? process.env.BENCH_SUBSCRIPTIONS ?? 2_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const WARM_UP = 50;
/** How many turns each half takes (`BENCH_ROUNDS`). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);

/** One of the three things measured in turns (creates, the ceiling, the minimal start): its work, and what its turns added up to. */
interface Half {
  label: string;
  work: (i: number) => Promise<unknown>;
  operations: number;
  seconds: number;
  latenciesMs: number[];
  cpu: GroupCpuSpent;
}

type Measured = Half & { perSecond: number };
/** A task queue no worker polls: the minimal starts' workflows are started and never run (nor are the others: no worker runs here). */
const CEILING_QUEUE = 'bench-creates-ceiling';

function log(message: string): void {
  process.stderr.write(`[bench:creates] ${message}\n`);
}

/** `work(i)` for i in [0, count), `concurrency` at a time; the latency of each, in milliseconds. */
async function timedPool(count: number, concurrency: number, work: (i: number) => Promise<unknown>): Promise<{ perSecond: number; latenciesMs: number[] }> {
  const latenciesMs: number[] = [];
  let next = 0;
  const started = performance.now();
  const lane = async () => {
    while (next < count) {
      const i = next++;
      const at = performance.now();
      await work(i);
      latenciesMs.push(performance.now() - at);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: count / seconds, latenciesMs: latenciesMs.sort((a, b) => a - b) };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

function line(label: string, result: { perSecond: number; latenciesMs: number[] }): string {
  return `  ${label.padEnd(38)} ${result.perSecond.toFixed(1).padStart(7)}/s   p50 ${percentile(result.latenciesMs, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(result.latenciesMs, 99).toFixed(1).padStart(6)} ms`;
}

/**
 * The state a create of the bench's request decides (one monthly price of EUR 9.90, starting
 * now): what its start sends (the product and price ids are in none of it), so the ceiling sends the create's start.
 */
function createdState(accountId: string, channelId: string, customerId: string) {
  const now = Date.now();
  const { state } = initialState(
    {
      id: newId('subscription', now),
      accountId,
      channelId,
      customerId,
      currency: 'EUR',
      paymentInstrumentId: null,
      collectionMethod: 'CHARGE_AUTOMATICALLY',
      description: null,
      merchantReference: null,
      metadata: null,
      discounts: [],
      settings: {},
      lines: [
        {
          id: newId('subscriptionLineItem', now),
          productId: 'bench-product',
          productPriceId: 'bench-price',
          productName: 'Bench plan',
          productDescription: null,
          billingType: 'RECURRING',
          amount: 990,
          billingPeriod: { value: 1, unit: 'MONTH' },
          quantity: 1,
          tax: null,
        },
      ],
    },
    scheduleOf({ startsAt: null, trial: null, anchorAt: null, endsAt: null }, now),
    now,
  );
  return state;
}

async function main(): Promise<void> {
  if (!Number.isInteger(N) || N < 1) throw new Error(`N must be a positive integer, got ${process.argv[2]}`);
  const kind = benchTemporalFromEnv();
  const dir = await mkdtemp(join(tmpdir(), 'bench-creates-'));
  const pgPort = await freePort();
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: pgPort, persistent: false, settings: STATEMENT_COUNTING_SETTINGS });
  let temporal: { address: string; stop(): Promise<void> } | undefined;
  let api: ApiUnderTest | undefined;
  try {
    await ensureDatabase(postgres.adminUrl, 'bench');
    const databaseUrl = postgres.urlFor('bench');
    await applyPendingMigrations(databaseUrl);
    temporal = await startBenchTemporal(kind, postgres, pgPort, dir);
    log(`${benchTemporalLabel(kind)} on ${temporal.address}; N = ${N}, ${CONCURRENCY} at a time`);

    const temporalDir = join(dir, 'temporal');
    let apiPid = -1;
    const groups: ProcessGroups = {
      API: { match: ({ pid }) => pid === apiPid },
      'Temporal server': { match: ({ argv }) => argv.some((arg) => arg.startsWith(temporalDir)) },
      PostgreSQL: { match: ({ argv }) => argv[0]!.endsWith('/postgres') && argv.includes(join(dir, 'pg')), withChildren: true },
      'bench client': { match: ({ pid }) => pid === process.pid },
    };

    const db = createDatabase(databaseUrl, 4);
    const account = await createAccount(db, 'bench');
    const channel = await createChannel(db, account.id, 'bench');
    const { secret } = await createOperatorApiKey(db, { accountId: account.id, name: 'bench' });
    const payers = await seedPayers(db, account.id, channel.id, N + WARM_UP);
    await db.$disconnect();

    api = await startApiUnderTest(ROOT, databaseUrl, {
      TEMPORAL_ADDRESS: temporal.address,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      URL_SIGNING_KEY: randomBytes(32).toString('hex'),
      STORAGE_DIR: join(dir, 'files'),
    });
    apiPid = api.child.pid!;
    const call = apiClient(`http://127.0.0.1:${api.port}`, secret);
    const product = await call('products/create', { name: 'Bench plan' });
    const price = await call('product-prices/create', { product_id: product.id, currency: 'EUR', amount: 990, billing_type: 'RECURRING', billing_period_config: { value: 1, unit: 'MONTH' } });
    const create = async (i: number) => {
      const created = await call('subscriptions/create', {
        customer_id: payers[i]!.customerId,
        payment_instrument_id: payers[i]!.instrumentId,
        line_items: [{ product_price_id: price.id, quantity: 1 }],
      });
      if (created.status !== 'PENDING') throw new Error(`subscriptions/create answered ${created.status}`);
    };

    const connection = await Connection.connect({ address: temporal.address });
    try {
      const client = new Client({ connection });
      const halves: Half[] = (
        [
          { label: 'subscriptions/create', work: create },
          { label: "the create's own start (ceiling)", work: (i: number) => startSubscriptionWorkflow(client, createdState(account.id, channel.id, payers[i]!.customerId)) },
          { label: 'minimal StartWorkflowExecution', work: (i: number) => client.workflow.start('noopWorkflow', { taskQueue: CEILING_QUEUE, workflowId: `bare-${i}`, args: [0] }) },
        ] as const
      ).map((half) => ({ ...half, operations: 0, seconds: 0, latenciesMs: [], cpu: { wallS: 0, machineS: 0, groups: {} } }));
      await timedPool(WARM_UP, CONCURRENCY, (i) => create(N + i));
      await timedPool(WARM_UP, CONCURRENCY, (i) => client.workflow.start('noopWorkflow', { taskQueue: CEILING_QUEUE, workflowId: `warm-up-${i}`, args: [0] }));

      const counter = await StatementCounter.create(databaseUrl);
      const before = await counter.snapshot();
      // Each half runs N / ROUNDS at a time in turn, the first of a round rotating: whatever else
      // loads the machine meanwhile falls on all three alike.
      const chunk = Math.ceil(N / ROUNDS);
      for (let round = 0; round * chunk < N; round++) {
        const from = round * chunk;
        const count = Math.min(chunk, N - from);
        for (let k = 0; k < halves.length; k++) {
          const half = halves[(round + k) % halves.length]!;
          const cpuBefore = readGroupCpu(groups);
          const result = await timedPool(count, CONCURRENCY, (i) => half.work(from + i));
          addSpent(cpuBefore, readGroupCpu(groups), half.cpu);
          half.operations += count;
          half.seconds += count / result.perSecond;
          half.latenciesMs.push(...result.latenciesMs);
        }
        log(`round ${round + 1}: ${halves.map((half) => `${half.label} ${(half.operations / half.seconds).toFixed(1)}/s`).join(', ')} so far`);
      }
      // The API's sessions flush their counters when they end.
      await api.stop();
      await counter.waitForOtherSessionsToEnd();
      const counts = perOperation(before, await counter.snapshot(), N);

      const [creates, ceiling, minimal] = halves.map((half) => ({ ...half, perSecond: half.operations / half.seconds, latenciesMs: half.latenciesMs.sort((a, b) => a - b) })) as [Measured, Measured, Measured];
      console.log('');
      console.log(`subscriptions/create, ${N} through the API, ${CONCURRENCY} at a time, ${benchTemporalLabel(kind)}, no worker; each half in ${Math.ceil(N / chunk)} turns:`);
      console.log(line(creates.label, creates));
      console.log(`    ${formatPerOperation(counts, 'create')}`);
      console.log(`    ${cpuPerOperation(creates.cpu, N)}`);
      console.log(line(minimal.label, minimal));
      console.log(`    ${cpuPerOperation(minimal.cpu, N)}`);
      console.log(`    ratio subscriptions/create / minimal starts (the ceiling until 2026-11-29): ${(creates.perSecond / minimal.perSecond).toFixed(3)}`);
      console.log(line(ceiling.label, ceiling));
      console.log(`    ${cpuPerOperation(ceiling.cpu, N)}`);
      console.log(`ratio subscriptions/create / bare workflow starts of the same work: ${(creates.perSecond / ceiling.perSecond).toFixed(3)}`);
    } finally {
      await connection.close();
    }
  } finally {
    await api?.stop();
    await temporal?.stop();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
