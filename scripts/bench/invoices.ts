import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { newId } from '../../domain/ids';
import { createDatabase, type Database } from '../../prisma/client';
import { connectStripe } from '../../services/payments/providers/stripe/connection';
import { stripeClient } from '../../services/payments/providers/stripe/client';
import { applyPendingMigrations } from '../db/migrations';
import { createAccount, createChannel, createOperatorApiKey } from '../operator/accounts';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { freePort } from '../net/free-port';
import type { StripeEmulator } from '../stripe/emulator-process';
import { apiClient } from './api-client';
import { seedPayers, type Payer, type PayerCards } from './payers';
import { cpuBetween, cpuSample, type CpuSample } from './machine-cpu';
import { startInvoiceCeiling } from './invoice-ceiling';
import { API_POOL_SIZE, run, startApiUnderTest, type ApiUnderTest } from './processes';
import { formatPerOperation, perOperation, StatementCounter, STATEMENT_COUNTING_SETTINGS, type PerOperation } from './statement-counts';
import { startSucceedingStripeMock } from './succeeding-stripe-mock';

/**
 * `npm run bench:invoices`: invoices created, finalized and paid per second through the API, from
 * N concurrent loops in a separate process, on the sandbox route and then on the Stripe route
 * against stripe-mock, beside N loops of the bare SDK calls the Stripe route makes per paid
 * invoice to the same stripe-mock, and pgbench's default TPC-B-like run against the same
 * PostgreSQL, all in the same run. The invoices are SEND_INVOICE and paid by invoices/pay, which
 * charges in the request itself: no Temporal server is involved. The sandbox route runs beside its
 * ceiling, the same rows written bare in the fewest transactions (scripts/bench/invoice-ceiling.ts),
 * driven by the same loops; their ratio is printed last. The platform's own overhead per
 * paid invoice and its check are defined in docs/invoice-payments.md, "Benchmark".
 */
const ROOT = resolve(__dirname, '../..');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 15);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const WARM_UP_MS = 3_000;
const LINE = { amount: 1_999, quantity: 2 };
const STRIPE_SECRET_KEY = 'sk_test_benchinvoices0001';
const STRIPE_WEBHOOK_SECRET = 'whsec_benchinvoices0001';

export interface LoadReport {
  cycles: number;
  /** Cycles completed while warming up: counted with the others for the statements per cycle. */
  warmCycles: number;
  errors: number;
  seconds: number;
  latenciesMs: number[];
  /** The machine's and the watched process's CPU, read at the start and the end of the measured cycles. */
  cpu?: { from: CpuSample; to: CpuSample };
}

/** One loop per payer, each running `cycle` over and over: a warm-up, then `durationS` measured. */
async function timedLoops(payers: Payer[], durationS: number, watchedPid: number, cycle: (payer: Payer) => Promise<void>): Promise<LoadReport> {
  const report: LoadReport = { cycles: 0, warmCycles: 0, errors: 0, seconds: durationS, latenciesMs: [] };
  const loop = async (payer: Payer, until: number, record: boolean) => {
    while (Date.now() < until) {
      const started = performance.now();
      try {
        await cycle(payer);
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
  const warmUntil = Date.now() + WARM_UP_MS;
  await Promise.all(payers.map((payer) => loop(payer, warmUntil, false)));
  const until = Date.now() + durationS * 1000;
  const from = cpuSample(watchedPid);
  await Promise.all(payers.map((payer) => loop(payer, until, true)));
  report.cpu = { from, to: cpuSample(watchedPid) };
  return report;
}

/** The load generator's cycle through the API: create → finalize → pay. */
function invoiceCycle(baseUrl: string, secret: string): (payer: Payer) => Promise<void> {
  const post = apiClient(baseUrl, secret);
  return async ({ customerId, instrumentId }) => {
    const draft = await post('invoices/create', { customer_id: customerId, currency: 'EUR', line_items: [{ ...LINE, description: 'Bench' }] });
    await post('invoices/finalize', { id: draft.id });
    const paid = await post('invoices/pay', { id: draft.id, payment_instrument_id: instrumentId });
    if (paid.invoice.status !== 'PAID') throw new Error(`pay left ${paid.invoice.status}`);
  };
}

/**
 * The Stripe requests of one paid invoice made bare: the one `paymentIntents.create` the Stripe
 * provider sends, with its parameters and idempotency key, through the client it builds.
 */
function sdkCycle(apiBase: string, accountId: string): (payer: Payer) => Promise<void> {
  const stripe = stripeClient(STRIPE_SECRET_KEY, apiBase);
  return async ({ stripe: card }) => {
    const paymentId = newId('payment');
    const idempotencyKey = `${paymentId}/stripe`;
    const intent = await stripe.paymentIntents.create(
      {
        amount: LINE.amount * LINE.quantity,
        currency: 'eur',
        customer: card!.customer,
        payment_method: card!.paymentMethod,
        off_session: true,
        confirm: true,
        metadata: { bp_idempotency_key: idempotencyKey, bp_account_id: accountId, bp_payment_id: paymentId, bp_invoice_id: newId('invoice') },
      },
      { idempotencyKey },
    );
    if (intent.status !== 'succeeded') throw new Error(`PaymentIntent ${intent.status}`);
  };
}

/** Runs this file as the load generator, in a process of its own, and returns its report. */
function runLoad(args: string[]): LoadReport {
  return JSON.parse(run(process.execPath, ['--import', 'tsx', __filename, ...args])) as LoadReport;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function mean(values: number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

export interface SeededAccount {
  accountId: string;
  secret: string;
  payers: Payer[];
}

/** One payer per loop and a key, in an account and channel that may hold other data. */
export async function seedLoopsIn(db: Database, accountId: string, channelId: string, name: string, cards: PayerCards): Promise<SeededAccount> {
  const payers = await seedPayers(db, accountId, channelId, CONCURRENCY, cards);
  const { secret } = await createOperatorApiKey(db, { accountId, name });
  return { accountId, secret, payers };
}

async function seedAccount(db: Database, name: string, cards: PayerCards): Promise<SeededAccount> {
  const account = await createAccount(db, name);
  const channel = await createChannel(db, account.id, name);
  return seedLoopsIn(db, account.id, channel.id, name, cards);
}

export interface InvoicePhase {
  load: LoadReport;
  counts: PerOperation;
  paidRows: number;
}

/** One route's loops against an API process of its own (or what `start` starts instead), with the statements its requests ran. */
export async function invoicePhase(
  databaseUrl: string,
  counter: StatementCounter,
  seeded: SeededAccount,
  start: () => Promise<ApiUnderTest> = () => startApiUnderTest(ROOT, databaseUrl),
): Promise<InvoicePhase> {
  await counter.waitForOtherSessionsToEnd();
  const before = await counter.snapshot();
  const api = await start();
  let load: LoadReport;
  try {
    load = runLoad(['--load', `http://127.0.0.1:${api.port}`, seeded.secret, JSON.stringify(seeded.payers), String(DURATION_S), String(api.child.pid)]);
  } finally {
    await api.stop();
  }
  await counter.waitForOtherSessionsToEnd();
  const counts = perOperation(before, await counter.snapshot(), load.warmCycles + load.cycles);
  const db = createDatabase(databaseUrl, 1);
  try {
    return { load, counts, paidRows: await db.invoice.count({ where: { accountId: seeded.accountId, status: 'PAID' } }) };
  } finally {
    await db.$disconnect();
  }
}

/** Prints one route's figures and returns its mean ms per paid invoice and machine CPU ms per paid invoice. */
function printInvoicePhase(label: string, { load, counts, paidRows }: InvoicePhase): { meanMs: number; cpuMs: number } {
  const perSecond = load.cycles / load.seconds;
  const sorted = [...load.latenciesMs].sort((a, b) => a - b);
  const meanMs = mean(load.latenciesMs);
  const cpu = cpuBetween(load.cpu!.from, load.cpu!.to);
  const cpuMs = (cpu.machineS * 1000) / load.cycles;
  console.log(`  ${label}:`);
  console.log(
    `    paid invoices/s  ${perSecond.toFixed(1)}   (${(perSecond * 3).toFixed(0)} requests/s)   cycle mean ${meanMs.toFixed(1)} ms   p50 ${percentile(sorted, 50).toFixed(0)} ms   p99 ${percentile(sorted, 99).toFixed(0)} ms   errors ${load.errors}   PAID rows ${paidRows}`,
  );
  console.log(`    ${formatPerOperation(counts, 'paid invoice')}${load.errors ? ` (${load.errors} failed cycles left out of the divisor)` : ''}`);
  console.log(
    `    CPU per paid invoice: machine ${cpuMs.toFixed(1)} ms, API ${((cpu.processS * 1000) / load.cycles).toFixed(1)} ms (machine ${(cpu.busyShare * 100).toFixed(0)} % busy; the load generator and stripe-mock count)`,
  );
  return { meanMs, cpuMs };
}

async function main(): Promise<void> {
  // connectStripe seals the key here; the API processes inherit the same SECRETS_KEY to open it.
  process.env.SECRETS_KEY ??= randomBytes(32).toString('hex');
  const dir = await mkdtemp(join(tmpdir(), 'bench-invoices-'));
  const pgPort = await freePort();
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: pgPort, persistent: false, settings: STATEMENT_COUNTING_SETTINGS });
  let emulator: StripeEmulator | undefined;
  try {
    await ensureDatabase(postgres.adminUrl, 'bench');
    const databaseUrl = postgres.urlFor('bench');
    await applyPendingMigrations(databaseUrl);
    emulator = await startSucceedingStripeMock(dir);
    const db = createDatabase(databaseUrl, 2);
    const sandboxAccount = await seedAccount(db, 'bench-sandbox', 'sandbox');
    const stripeAccount = await seedAccount(db, 'bench-stripe', 'stripe');
    const ceilingAccount = await seedAccount(db, 'bench-ceiling', 'sandbox');
    await connectStripe(
      db,
      stripeAccount.accountId,
      { secretKey: STRIPE_SECRET_KEY, webhookSecret: STRIPE_WEBHOOK_SECRET, apiBase: emulator.url, connectedBy: 'operator' },
      new Date(),
    );
    await db.$disconnect();
    const counter = await StatementCounter.create(databaseUrl);

    const sandbox = await invoicePhase(databaseUrl, counter, sandboxAccount);
    const ceiling = await invoicePhase(databaseUrl, counter, ceilingAccount, () => startInvoiceCeiling(databaseUrl, API_POOL_SIZE));
    const stripe = await invoicePhase(databaseUrl, counter, stripeAccount);
    if (process.env.BENCH_STATEMENTS) console.log((await counter.topStatements()).join('\n'));
    const sdk = runLoad(['--sdk', emulator.url, stripeAccount.accountId, JSON.stringify(stripeAccount.payers), String(DURATION_S)]);

    const pgEnv = { ...process.env, PGPASSWORD: 'postgres' };
    const pgArgs = ['-h', '127.0.0.1', '-p', String(pgPort), '-U', 'postgres'];
    run('pgbench', [...pgArgs, '-i', '-q', '-s', '10', 'bench'], pgEnv);
    const pgFrom = cpuSample(process.pid);
    const pgOut = run('pgbench', [...pgArgs, '-n', '-c', String(CONCURRENCY), '-j', '2', '-T', String(DURATION_S), 'bench'], pgEnv);
    const pgCpu = cpuBetween(pgFrom, cpuSample(process.pid));
    const pgTps = Number(/tps = ([\d.]+)/.exec(pgOut)?.[1]);
    const pgLatency = Number(/latency average = ([\d.]+) ms/.exec(pgOut)?.[1]);

    console.log('');
    console.log(`invoices create → finalize → pay, ${CONCURRENCY} loops, ${DURATION_S}s per route, load from a separate process, an API process per route:`);
    const a = printInvoicePhase('(a) sandbox route (sandbox providers)', sandbox);
    printInvoicePhase(`(a') ceiling of (a): the same rows, raw SQL from Fastify + a pg pool of ${API_POOL_SIZE}, one statement per transaction, the sandbox charge in process`, ceiling);
    const b = printInvoicePhase('(b) Stripe route (stripe-mock, PaymentIntents succeeded)', stripe);
    const sdkSorted = [...sdk.latenciesMs].sort((x, y) => x - y);
    const callMs = mean(sdk.latenciesMs);
    const sdkCpu = cpuBetween(sdk.cpu!.from, sdk.cpu!.to);
    console.log(`  (c) bare SDK paymentIntents.create to the same stripe-mock, the provider's parameters and client, ${CONCURRENCY} loops, from a separate process:`);
    console.log(
      `    SDK calls/s  ${(sdk.cycles / sdk.seconds).toFixed(1)}   mean ${callMs.toFixed(2)} ms per call   p50 ${percentile(sdkSorted, 50).toFixed(1)} ms   p99 ${percentile(sdkSorted, 99).toFixed(1)} ms   errors ${sdk.errors}`,
    );
    console.log(
      `    CPU per call: machine ${((sdkCpu.machineS * 1000) / sdk.cycles).toFixed(2)} ms, SDK client ${((sdkCpu.processS * 1000) / sdk.cycles).toFixed(2)} ms (machine ${(sdkCpu.busyShare * 100).toFixed(0)} % busy; stripe-mock counts)`,
    );
    console.log(`pgbench (default TPC-B-like), same PostgreSQL, ${CONCURRENCY} clients, ${DURATION_S}s:`);
    console.log(`  transactions/s  ${pgTps.toFixed(0)}   average latency ${pgLatency} ms`);
    const pgTransactions = Number(/number of transactions actually processed: (\d+)/.exec(pgOut)?.[1]);
    const pgCpuMs = (pgCpu.machineS * 1000) / pgTransactions;
    console.log(`  CPU per transaction: machine ${pgCpuMs.toFixed(2)} ms (machine ${(pgCpu.busyShare * 100).toFixed(0)} % busy; pgbench counts)`);
    console.log(`  machine CPU per operation, TPC-B transaction / paid invoice: sandbox ${(pgCpuMs / a.cpuMs).toFixed(3)}, Stripe ${(pgCpuMs / b.cpuMs).toFixed(3)} (the ratio the machine allows while its CPU is the limit)`);
    const sandboxPerSecond = sandbox.load.cycles / sandbox.load.seconds;
    const stripePerSecond = stripe.load.cycles / stripe.load.seconds;
    console.log(`ratio paid invoices / pgbench TPC-B transactions: sandbox ${(sandboxPerSecond / pgTps).toFixed(3)}, Stripe ${(stripePerSecond / pgTps).toFixed(3)}`);
    console.log(`ratio paid invoices/s, Stripe route / sandbox route: ${(stripePerSecond / sandboxPerSecond).toFixed(3)}`);

    const sandboxOverhead = a.meanMs;
    const stripeOverhead = b.meanMs - callMs;
    const excess = stripeOverhead - sandboxOverhead;
    console.log(`platform overhead per paid invoice (mean cycle ms at ${CONCURRENCY} loops; the Stripe route's less the mean bare SDK call at ${CONCURRENCY} loops):`);
    console.log(`  sandbox ${sandboxOverhead.toFixed(1)} ms   Stripe ${b.meanMs.toFixed(1)} − ${callMs.toFixed(2)} = ${stripeOverhead.toFixed(1)} ms`);
    console.log(
      `check overhead(stripe) − overhead(sandbox) ≤ emulator call time: ${excess.toFixed(1)} ms ≤ ${callMs.toFixed(2)} ms: ${excess <= callMs ? 'met' : 'NOT met'}`,
    );
    console.log(`ratio (overhead(stripe) − overhead(sandbox)) / emulator call time: ${(excess / callMs).toFixed(3)} (≤ 1 meets the check)`);
    const ceilingPerSecond = ceiling.load.cycles / ceiling.load.seconds;
    console.log(
      `sandbox route against its ceiling (a'): paid invoices/s ${sandboxPerSecond.toFixed(1)} vs ${ceilingPerSecond.toFixed(1)}, ` +
        `statements ${sandbox.counts.statements.toFixed(2)} vs ${ceiling.counts.statements.toFixed(2)}, commits ${sandbox.counts.transactions.toFixed(2)} vs ${ceiling.counts.transactions.toFixed(2)} per paid invoice (goal ≤ 5), load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    );
    console.log(`ratio paid invoices/s, sandbox route / its ceiling: ${(sandboxPerSecond / ceilingPerSecond).toFixed(3)} (goal ≥ 0.5)`);
  } finally {
    await emulator?.stop();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

const mode = process.argv[2];
if (mode === '--load' || mode === '--sdk') {
  const [, , , target, who, payers, duration, apiPid] = process.argv;
  const report =
    mode === '--load'
      ? timedLoops(JSON.parse(payers!) as Payer[], Number(duration), Number(apiPid), invoiceCycle(target!, who!))
      : timedLoops(JSON.parse(payers!) as Payer[], Number(duration), process.pid, sdkCycle(target!, who!));
  report
    .then((done) => process.stdout.write(JSON.stringify(done)))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
} else if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
