import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDatabase } from '../../prisma/client';
import { applyPendingMigrations } from '../db/migrations';
import { createAccount, createChannel, createOperatorApiKey } from '../operator/accounts';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { freePort } from '../net/free-port';
import { apiClient } from './api-client';
import { seedPayers, type Payer } from './payers';
import { cpuBetween, cpuSample, type CpuSample } from './machine-cpu';
import { run, startApiUnderTest, type ApiUnderTest } from './processes';
import { formatPerOperation, perOperation, StatementCounter, STATEMENT_COUNTING_SETTINGS } from './statement-counts';

/**
 * `npm run bench:invoices`: invoices created, finalized and paid per second through the API with
 * the sandbox providers, from N concurrent loops in a separate process, beside pgbench's default
 * TPC-B-like run against the same PostgreSQL in the same run. The invoices are SEND_INVOICE and
 * paid by invoices/pay, which charges in the request itself: no Temporal server is involved.
 */
const ROOT = resolve(__dirname, '../..');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 15);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

interface LoadReport {
  cycles: number;
  /** Cycles completed while warming up: counted with the others for the statements per cycle. */
  warmCycles: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
  /** The machine's and the API process's CPU, read at the start and the end of the measured cycles. */
  cpu?: { from: CpuSample; to: CpuSample };
}

/** The load generator, run as its own process: each loop creates → finalizes → pays, over and over. */
async function generateLoad(baseUrl: string, secret: string, payers: Payer[], durationS: number, apiPid: number): Promise<LoadReport> {
  const post = apiClient(baseUrl, secret);
  const report: LoadReport = { cycles: 0, warmCycles: 0, errors: 0, seconds: durationS, latenciesMs: [] };
  const loop = async ({ customerId, instrumentId }: Payer, until: number, record: boolean) => {
    while (Date.now() < until) {
      const started = performance.now();
      try {
        const draft = await post('invoices/create', {
          customer_id: customerId,
          currency: 'EUR',
          line_items: [{ amount: 1_999, description: 'Bench', quantity: 2 }],
        });
        await post('invoices/finalize', { id: draft.id });
        const paid = await post('invoices/pay', { id: draft.id, payment_instrument_id: instrumentId });
        if (paid.invoice.status !== 'PAID') throw new Error(`pay left ${paid.invoice.status}`);
        if (record) {
          report.cycles++;
          report.latenciesMs.push(performance.now() - started);
        } else {
          report.warmCycles++;
        }
      } catch (error) {
        if (record) report.errors++;
        if (report.errors === 1) console.error(error);
      }
    }
  };
  const warmUntil = Date.now() + 3_000;
  await Promise.all(payers.map((payer) => loop(payer, warmUntil, false)));
  const until = Date.now() + durationS * 1000;
  const from = cpuSample(apiPid);
  await Promise.all(payers.map((payer) => loop(payer, until, true)));
  report.cpu = { from, to: cpuSample(apiPid) };
  return report;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function countPaid(databaseUrl: string): Promise<number> {
  const db = createDatabase(databaseUrl, 1);
  try {
    return await db.invoice.count({ where: { status: 'PAID' } });
  } finally {
    await db.$disconnect();
  }
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-invoices-'));
  const pgPort = await freePort();
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: pgPort, persistent: false, settings: STATEMENT_COUNTING_SETTINGS });
  let api: ApiUnderTest | undefined;
  try {
    await ensureDatabase(postgres.adminUrl, 'bench');
    const databaseUrl = postgres.urlFor('bench');
    await applyPendingMigrations(databaseUrl);
    const db = createDatabase(databaseUrl, 2);
    const account = await createAccount(db, 'bench');
    const channel = await createChannel(db, account.id, 'bench');
    const payers = await seedPayers(db, account.id, channel.id, CONCURRENCY);
    const { secret } = await createOperatorApiKey(db, { accountId: account.id, name: 'bench' });
    await db.$disconnect();
    const counter = await StatementCounter.create(databaseUrl);
    await counter.waitForOtherSessionsToEnd();
    const before = await counter.snapshot();

    api = await startApiUnderTest(ROOT, databaseUrl);
    const port = api.port;

    const load = JSON.parse(
      run(process.execPath, ['--import', 'tsx', __filename, '--load', `http://127.0.0.1:${port}`, secret, JSON.stringify(payers), String(DURATION_S), String(api.child.pid)]),
    ) as LoadReport;
    await api.stop();
    await counter.waitForOtherSessionsToEnd();
    const counts = perOperation(before, await counter.snapshot(), load.warmCycles + load.cycles);
    if (process.env.BENCH_STATEMENTS) console.log((await counter.topStatements()).join('\n'));
    const paidRows = await countPaid(databaseUrl);

    const pgEnv = { ...process.env, PGPASSWORD: 'postgres' };
    const pgArgs = ['-h', '127.0.0.1', '-p', String(pgPort), '-U', 'postgres'];
    run('pgbench', [...pgArgs, '-i', '-q', '-s', '10', 'bench'], pgEnv);
    const pgFrom = cpuSample(process.pid);
    const pgOut = run('pgbench', [...pgArgs, '-n', '-c', String(CONCURRENCY), '-j', '2', '-T', String(DURATION_S), 'bench'], pgEnv);
    const pgCpu = cpuBetween(pgFrom, cpuSample(process.pid));
    const pgTps = Number(/tps = ([\d.]+)/.exec(pgOut)?.[1]);
    const pgLatency = Number(/latency average = ([\d.]+) ms/.exec(pgOut)?.[1]);

    const perSecond = load.cycles / load.seconds;
    const sorted = [...load.latenciesMs].sort((a, b) => a - b);
    console.log('');
    console.log(`invoices create → finalize → pay (sandbox providers), ${CONCURRENCY} loops, ${DURATION_S}s, load from a separate process:`);
    console.log(
      `  paid invoices/s  ${perSecond.toFixed(1)}   (${(perSecond * 3).toFixed(0)} requests/s)   cycle p50 ${percentile(sorted, 50).toFixed(0)} ms   p99 ${percentile(sorted, 99).toFixed(0)} ms   errors ${load.errors}   PAID rows ${paidRows}`,
    );
    console.log(`  ${formatPerOperation(counts, 'paid invoice')}${load.errors ? ` (${load.errors} failed cycles left out of the divisor)` : ''}`);
    const invoiceCpu = cpuBetween(load.cpu!.from, load.cpu!.to);
    const invoiceCpuMs = (invoiceCpu.machineS * 1000) / load.cycles;
    console.log(
      `  CPU per paid invoice: machine ${invoiceCpuMs.toFixed(1)} ms, API ${((invoiceCpu.processS * 1000) / load.cycles).toFixed(1)} ms (machine ${(invoiceCpu.busyShare * 100).toFixed(0)} % busy; the load generator counts)`,
    );
    console.log(`pgbench (default TPC-B-like), same PostgreSQL, ${CONCURRENCY} clients, ${DURATION_S}s:`);
    console.log(`  transactions/s  ${pgTps.toFixed(0)}   average latency ${pgLatency} ms`);
    const pgTransactions = Number(/number of transactions actually processed: (\d+)/.exec(pgOut)?.[1]);
    const pgCpuMs = (pgCpu.machineS * 1000) / pgTransactions;
    console.log(`  CPU per transaction: machine ${pgCpuMs.toFixed(2)} ms (machine ${(pgCpu.busyShare * 100).toFixed(0)} % busy; pgbench counts)`);
    console.log(`  machine CPU per operation, TPC-B transaction / paid invoice: ${(pgCpuMs / invoiceCpuMs).toFixed(3)} (the ratio the machine allows while its CPU is the limit)`);
    console.log(`ratio paid invoices / pgbench TPC-B transactions: ${(perSecond / pgTps).toFixed(3)}`);
  } finally {
    await api?.stop();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--load') {
  const [, , , baseUrl, secret, payers, duration, apiPid] = process.argv;
  generateLoad(baseUrl!, secret!, JSON.parse(payers!) as Payer[], Number(duration), Number(apiPid))
    .then((report) => process.stdout.write(JSON.stringify(report)))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
} else {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
