import { statfsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { newId, newUlid } from '../../domain/ids';
import { createDatabase, type Database } from '../../prisma/client';
import { applyPendingMigrations } from '../db/migrations';
import { createAccount, createChannel, createOperatorApiKey } from '../operator/accounts';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { freePort } from '../net/free-port';
import { apiClient } from './api-client';
import { cpuBetween } from './machine-cpu';
import { postgresCpuSeconds } from './postgres-cpu';
import { run, startApiUnderTest } from './processes';
import { formatPerOperation, perOperation, StatementCounter, STATEMENT_COUNTING_SETTINGS } from './statement-counts';
import type { LoadReport, VisibilityReport } from './usage-load';

/**
 * `npm run bench:usage [-- --phase ingest,visibility,summary,growth]` (all by default; the
 * figures and how to read them: docs/benchmarks.md, docs/usage.md "Ingestion"). One account,
 * 1,000 customers, one event name measured by two meters (COUNT, and SUM of `tokens` by
 * `region`), the API in a process of its own, load from another:
 * (a) ingest: usage-events/ingest, batches of 1,000 from 8 connections, events/s, beside the
 *     ceiling in the same run: the same rows COPYed into the same table (usage_events, truncated,
 *     its primary key the dedupe) in the same batches from as many connections; ratio last.
 * (b) visibility: background ingestion at half of (a)'s rate while probes ingest one event and
 *     ask usage/summary until it counts it: p99 from the ACCEPTED answer to visible.
 * (c) summary: usage/summary of one customer with 10,000,000 events in the 30 days asked (events
 *     and roll-ups written straight by SQL, the roll-ups by the ingestion statement's
 *     aggregation), p99 over sequential requests.
 * (d) growth: the rate of (a) (API only) on empty tables and again with N events stored, N as
 *     large as BENCH_GROWTH_SEED_S of seeding reach (at most BENCH_GROWTH_EVENTS); ratio last.
 */
const ROOT = resolve(__dirname, '../..');
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const BATCH = 1000;
const BATCHES = Number(process.env.BENCH_BATCHES ?? 300);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 1000);
const VISIBILITY_S = Number(process.env.BENCH_VISIBILITY_S ?? 30);
const SUMMARY_EVENTS = Number(process.env.BENCH_SUMMARY_EVENTS ?? 10_000_000);
const SUMMARY_REQUESTS = Number(process.env.BENCH_SUMMARY_REQUESTS ?? 300);
const GROWTH_EVENTS = Number(process.env.BENCH_GROWTH_EVENTS ?? 100_000_000);
const GROWTH_SEED_S = Number(process.env.BENCH_GROWTH_SEED_S ?? 900);
/** Seeding stops before the disk has less free than this. */
const MIN_FREE_DISK_BYTES = 12 * 1024 ** 3;
const REGIONS = ['eu-west', 'eu-central', 'us-east', 'ap-south'];
const EVENT_NAME = 'api.request';
const LOAD = join(__dirname, 'usage-load.ts');
const DAY_MS = 24 * 60 * 60 * 1000;

interface Setup {
  databaseUrl: string;
  /** The PostgreSQL server's data directory: its CPU is read by it (postgres-cpu.ts). */
  dataDir: string;
  accountId: string;
  channelId: string;
  secret: string;
  customerIds: string[];
  /** The COUNT meter, then the SUM meter. */
  meterIds: [string, string];
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const sortedOf = (values: number[]) => [...values].sort((a, b) => a - b);

/** Customers written as customers/create leaves them, a thousand to a statement. */
async function seedCustomers(db: Database, accountId: string, channelId: string, count: number): Promise<string[]> {
  const now = new Date();
  const ids = Array.from({ length: count }, () => newId('customer'));
  for (let from = 0; from < count; from += 1000) {
    await db.customer.createMany({
      data: ids.slice(from, from + 1000).map((id, i) => ({
        id,
        accountId,
        channelId,
        type: 'INDIVIDUAL',
        email: `usage${from + i}@example.com`,
        tax: { taxability: 'TAXABLE' },
        status: 'ACTIVE',
        createdAt: now,
        updatedAt: now,
      })),
    });
  }
  return ids;
}

/** The meters of the event name, as meters/create leaves them: requests counted, and tokens summed by region. */
async function seedMeters(db: Database, accountId: string): Promise<[string, string]> {
  const now = new Date();
  const meters = [
    { aggregation: 'COUNT', property: null, groupBy: [] as string[] },
    { aggregation: 'SUM', property: 'tokens', groupBy: ['region'] },
  ];
  const ids: string[] = [];
  for (const meter of meters) {
    const id = newId('meter');
    ids.push(id);
    await db.meter.create({
      data: {
        id,
        accountId,
        name: `${meter.aggregation} ${EVENT_NAME}`,
        eventName: EVENT_NAME,
        aggregation: meter.aggregation,
        status: 'ACTIVE',
        version: 1,
        createdAt: now,
        updatedAt: now,
        versions: { create: { version: 1, effectiveFrom: new Date(0), property: meter.property, filters: [], groupBy: meter.groupBy, createdAt: now } },
      },
    });
  }
  return ids as [string, string];
}

/**
 * `count` batches of 1,000 events as request bodies, one per line: ids time-ordered (ULIDs, as
 * most event producers make them), customers drawn at random, timestamps in the last minute.
 */
function writeBatches(file: string, customerIds: string[], count: number): void {
  const now = Date.now();
  const lines: string[] = [];
  for (let b = 0; b < count; b++) {
    const events = Array.from({ length: BATCH }, (_, i) => ({
      event_id: `evt_${newUlid()}`,
      event_name: EVENT_NAME,
      customer_id: customerIds[Math.floor(Math.random() * customerIds.length)]!,
      timestamp: new Date(now - Math.floor(Math.random() * 60_000)).toISOString().replace('Z', '000Z'),
      properties: { region: REGIONS[(b + i) % REGIONS.length], tokens: 1 + ((b * BATCH + i) % 977), model: 'small' },
    }));
    lines.push(JSON.stringify({ events }));
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
}

function runLoad<T = LoadReport>(args: string[]): T {
  return JSON.parse(run(process.execPath, ['--import', 'tsx', LOAD, ...args])) as T;
}

async function sql<T = unknown>(databaseUrl: string, text: string, values: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

async function truncateUsage(databaseUrl: string): Promise<void> {
  await sql(databaseUrl, 'TRUNCATE usage_events, usage_rollups, usage_distinct_values');
  await sql(databaseUrl, 'CHECKPOINT');
}

function describeLoad(report: LoadReport): string {
  const sorted = sortedOf(report.latenciesMs);
  return (
    `events/s ${(report.accepted / report.seconds).toFixed(0)}   (${report.accepted} events in ${report.seconds.toFixed(1)} s)   ` +
    `per batch p50 ${percentile(sorted, 50).toFixed(0)} ms   p99 ${percentile(sorted, 99).toFixed(0)} ms   errors ${report.errors}`
  );
}

const perThousand = (seconds: number, events: number) => ((seconds * 1000 * BATCH) / events).toFixed(1);

interface ApiRun {
  report: LoadReport;
  databaseS: number;
}

/** The file's batches through an API process of its own, with PostgreSQL's CPU over the run. */
async function ingestThroughApi(setup: Setup, file: string): Promise<ApiRun> {
  const api = await startApiUnderTest(ROOT, setup.databaseUrl);
  try {
    const pgFrom = postgresCpuSeconds(setup.dataDir);
    const report = runLoad(['ingest', `http://127.0.0.1:${api.port}`, setup.secret, file, String(CONNECTIONS), String(api.child.pid)]);
    return { report, databaseS: postgresCpuSeconds(setup.dataDir) - pgFrom };
  } finally {
    await api.stop();
  }
}

function printApiRun(label: string, { report, databaseS }: ApiRun): void {
  const cpu = cpuBetween(report.cpu.from, report.cpu.to);
  console.log(`  ${label}   ${describeLoad(report)}`);
  console.log(
    `    CPU per 1,000 events: API ${perThousand(cpu.processS, report.accepted)} ms, PostgreSQL ${perThousand(databaseS, report.accepted)} ms, load generator ${perThousand(report.generatorS, report.accepted)} ms; ` +
      `machine ${perThousand(cpu.machineS, report.accepted)} ms (${(cpu.busyShare * 100).toFixed(0)} % busy, whatever else runs counted)`,
  );
}

/** (a) The API against COPY, the same rows into the same empty table. */
async function ingestPhase(dir: string, setup: Setup, counter: StatementCounter): Promise<number> {
  const file = join(dir, 'batches.jsonl');
  writeBatches(file, setup.customerIds, BATCHES);
  await truncateUsage(setup.databaseUrl);

  await counter.waitForOtherSessionsToEnd();
  const before = await counter.snapshot();
  const api = await ingestThroughApi(setup, file);
  await counter.waitForOtherSessionsToEnd();
  const counts = perOperation(before, await counter.snapshot(), api.report.batches);
  const [stored] = await sql<{ events: string; rolled: string }>(
    setup.databaseUrl,
    `SELECT (SELECT count(*) FROM usage_events)::text AS events,
            (SELECT sum(event_count) FROM usage_rollups WHERE meter_id = $1 AND grain = 'h')::text AS rolled`,
    [setup.meterIds[0]],
  );

  await truncateUsage(setup.databaseUrl);
  const copyFrom = postgresCpuSeconds(setup.dataDir);
  const ceiling = runLoad(['copy', setup.databaseUrl, setup.accountId, file, String(CONNECTIONS)]);
  const copyDatabaseS = postgresCpuSeconds(setup.dataDir) - copyFrom;
  await truncateUsage(setup.databaseUrl);

  const eventsPerSecond = api.report.accepted / api.report.seconds;
  const copyPerSecond = ceiling.accepted / ceiling.seconds;
  console.log('');
  console.log(
    `(a) ingestion: ${BATCHES} batches of ${BATCH} events (${CUSTOMERS} customers, 2 meters: COUNT and SUM by region), ${CONNECTIONS} connections, load from a separate process:`,
  );
  printApiRun('usage-events/ingest', api);
  console.log(`    stored ${stored!.events} events, the COUNT meter's hour roll-ups hold ${stored!.rolled}`);
  console.log(`    ${formatPerOperation(counts, 'batch')}`);
  console.log(`  COPY ceiling (same rows, same table and indexes, one COPY per batch, ${CONNECTIONS} connections)   ${describeLoad(ceiling)}`);
  console.log(`    CPU per 1,000 events: PostgreSQL ${perThousand(copyDatabaseS, ceiling.accepted)} ms, COPY client ${perThousand(ceiling.generatorS, ceiling.accepted)} ms`);
  console.log(`  ratio API / COPY: ${(eventsPerSecond / copyPerSecond).toFixed(3)}`);
  return eventsPerSecond;
}

/** A rate to take half of when (a) did not run in this invocation: the API alone on the same batches. */
async function measuredCapacity(dir: string, setup: Setup): Promise<number> {
  const file = join(dir, 'capacity.jsonl');
  writeBatches(file, setup.customerIds, BATCHES);
  await truncateUsage(setup.databaseUrl);
  const { report } = await ingestThroughApi(setup, file);
  await truncateUsage(setup.databaseUrl);
  return report.accepted / report.seconds;
}

/** (b) Accepted → visible in usage/summary, under background ingestion at half the capacity. */
async function visibilityPhase(dir: string, setup: Setup, capacity: number): Promise<void> {
  const pace = capacity / 2;
  const file = join(dir, 'visibility.jsonl');
  writeBatches(file, setup.customerIds, Math.ceil((pace * VISIBILITY_S) / BATCH) + CONNECTIONS);
  const probe = (await seedCustomersWithDb(setup, 1))[0]!;
  const api = await startApiUnderTest(ROOT, setup.databaseUrl);
  let report: VisibilityReport;
  try {
    report = runLoad<VisibilityReport>([
      'visibility',
      `http://127.0.0.1:${api.port}`,
      setup.secret,
      file,
      String(CONNECTIONS),
      String(pace),
      String(VISIBILITY_S),
      probe,
      setup.meterIds[0],
      EVENT_NAME,
    ]);
  } finally {
    await api.stop();
  }
  await truncateUsage(setup.databaseUrl);
  const accepted = sortedOf(report.fromAcceptedMs);
  const sent = sortedOf(report.fromSentMs);
  console.log('');
  console.log(`(b) accepted → visible in usage/summary, ${VISIBILITY_S} s of background ingestion paced at half of ${capacity.toFixed(0)} events/s:`);
  console.log(
    `  background: ${report.backgroundEventsPerSecond.toFixed(0)} events/s accepted, ${report.batches} batches sent, ${report.skipped} not started (${CONNECTIONS} in flight), errors ${report.errors}`,
  );
  console.log(
    `  ${accepted.length} probes, from the ACCEPTED answer to the first summary counting the event: p50 ${percentile(accepted, 50).toFixed(1)} ms   p99 ${percentile(accepted, 99).toFixed(1)} ms   max ${accepted[accepted.length - 1]?.toFixed(1)} ms`,
  );
  console.log(`  from the send of the event: p50 ${percentile(sent, 50).toFixed(1)} ms   p99 ${percentile(sent, 99).toFixed(1)} ms`);
  console.log(`  check p99 ≤ 1000 ms: ${percentile(accepted, 99) <= 1000 ? 'met' : 'NOT met'}`);
}

async function seedCustomersWithDb(setup: Setup, count: number): Promise<string[]> {
  const db = createDatabase(setup.databaseUrl, 1);
  try {
    return await seedCustomers(db, setup.accountId, setup.channelId, count);
  } finally {
    await db.$disconnect();
  }
}

/**
 * `count` events of `customerId` written straight into usage_events by generate_series: evenly
 * spread over [from, to), regions in turn, ids `prefix` and a sequence number (a prefix `evt_00`
 * sorts them before every ULID the load sends, `evt_01…`, as older events' ids are).
 */
async function seedEvents(setup: Setup, customerIds: string[], count: number, from: number, to: number, prefix: string, offset: number): Promise<void> {
  await sql(
    setup.databaseUrl,
    // The customers joined by number (subscripting a text array walks it from the start); the
    // series' bounds written out, so the planner hashes the customers and keeps the series' order.
    `WITH customer AS (SELECT id, (n - 1)::int AS k FROM unnest($4::text[]) WITH ORDINALITY AS u(id, n))
     INSERT INTO usage_events (account_id, event_id, event_name, customer_id, "timestamp", properties, received_at)
     SELECT $1, $2 || lpad(g::text, 12, '0'), $3, customer.id,
            to_timestamp(($5::float8 + (g - $7) * $6::float8) / 1000),
            jsonb_build_object('region', ($8::text[])[1 + g % 4], 'tokens', 1 + g % 977, 'model', 'small'),
            statement_timestamp()
       FROM generate_series(${offset}::bigint, ${offset + count - 1}::bigint) AS g
       JOIN customer ON customer.k = g % ${customerIds.length}`,
    [setup.accountId, prefix, EVENT_NAME, customerIds, from, (to - from) / count, offset, REGIONS],
  );
}

/** The roll-ups of `customerId`'s stored events, aggregated as the ingestion statement aggregates a batch. */
async function rollUpStoredEvents(setup: Setup, customerId: string): Promise<void> {
  await sql(
    setup.databaseUrl,
    `INSERT INTO usage_rollups (meter_id, customer_id, grain, bucket, group_key, event_count, value_sum, value_max, latest_at, latest_event_id, latest_value)
     SELECT m.meter_id, e.customer_id, g.grain, date_trunc(g.unit, e."timestamp", 'UTC'), m.group_key,
            count(*), sum(m.value), max(m.value), max(e."timestamp"),
            (array_agg(e.event_id ORDER BY e."timestamp" DESC, e.event_id COLLATE "C" DESC))[1],
            (array_agg(m.value ORDER BY e."timestamp" DESC, e.event_id COLLATE "C" DESC))[1]
       FROM usage_events e
       CROSS JOIN LATERAL (VALUES ($2, '[]', 0::numeric),
                                  ($3, '["' || (e.properties->>'region') || '"]', (e.properties->>'tokens')::numeric)) AS m(meter_id, group_key, value)
       CROSS JOIN (VALUES ('m', 'minute'), ('h', 'hour')) AS g(grain, unit)
      WHERE e.customer_id = $1
      GROUP BY m.meter_id, e.customer_id, g.grain, g.unit, m.group_key, date_trunc(g.unit, e."timestamp", 'UTC')`,
    [customerId, setup.meterIds[0], setup.meterIds[1]],
  );
}

/** (c) usage/summary of one customer with SUMMARY_EVENTS events in the 30 days asked. */
async function summaryPhase(setup: Setup): Promise<void> {
  const [customerId] = await seedCustomersWithDb(setup, 1);
  const to = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const from = to - 30 * DAY_MS;
  const seedStarted = performance.now();
  const chunk = 2_000_000;
  for (let done = 0; done < SUMMARY_EVENTS; done += chunk) {
    const count = Math.min(chunk, SUMMARY_EVENTS - done);
    const span = (to - from) / SUMMARY_EVENTS;
    await seedEvents(setup, [customerId!], count, from + done * span, from + (done + count) * span, 'evt_00sum', done);
  }
  await rollUpStoredEvents(setup, customerId!);
  await sql(setup.databaseUrl, 'VACUUM ANALYZE usage_events, usage_rollups');
  const seedS = (performance.now() - seedStarted) / 1000;
  const [rows] = await sql<{ events: string; rollups: string }>(
    setup.databaseUrl,
    `SELECT (SELECT count(*) FROM usage_events WHERE customer_id = $1)::text AS events, (SELECT count(*) FROM usage_rollups WHERE customer_id = $1)::text AS rollups`,
    [customerId],
  );

  const api = await startApiUnderTest(ROOT, setup.databaseUrl);
  const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '000Z');
  const requests = {
    'DAY, 30 days, both meters, group_by': { customer_id: customerId, window: 'DAY', from: iso(from), to: iso(to), group_by: true },
    'HOUR, last 24 h of the period, both meters': { customer_id: customerId, window: 'HOUR', from: iso(to - DAY_MS), to: iso(to) },
  };
  const figures: [string, number[], string][] = [];
  try {
    const post = apiClient(`http://127.0.0.1:${api.port}`, setup.secret);
    for (const [label, body] of Object.entries(requests)) {
      const first = await post('usage/summary', body);
      const quantity = (first.meters as { buckets: { quantity: string }[] }[]).map((m) => m.buckets.reduce((sum, b) => sum + Number(b.quantity), 0)).join(' / ');
      for (let i = 0; i < 10; i++) await post('usage/summary', body);
      const latencies: number[] = [];
      for (let i = 0; i < SUMMARY_REQUESTS; i++) {
        const started = performance.now();
        await post('usage/summary', body);
        latencies.push(performance.now() - started);
      }
      figures.push([label, sortedOf(latencies), quantity]);
    }
  } finally {
    await api.stop();
  }
  await truncateUsage(setup.databaseUrl);
  console.log('');
  console.log(
    `(c) usage/summary of one customer with ${rows!.events} events in 30 days (${rows!.rollups} roll-up rows; seeded by SQL in ${seedS.toFixed(0)} s), ${SUMMARY_REQUESTS} sequential requests each:`,
  );
  for (const [label, sorted, quantity] of figures) {
    console.log(`  ${label}: p50 ${percentile(sorted, 50).toFixed(1)} ms   p99 ${percentile(sorted, 99).toFixed(1)} ms   (quantities summed: ${quantity})`);
  }
  const p99 = percentile(figures[0]![1], 99);
  console.log(`  check p99 ≤ 50 ms (the 30-day DAY summary): ${p99 <= 50 ? 'met' : 'NOT met'}`);
}

function freeDiskBytes(path: string): number {
  const stats = statfsSync(path);
  return stats.bavail * stats.bsize;
}

/** (d) The ingestion rate on empty tables and with N events stored. */
async function growthPhase(dir: string, setup: Setup): Promise<void> {
  const file = join(dir, 'growth-empty.jsonl');
  writeBatches(file, setup.customerIds, BATCHES);
  await truncateUsage(setup.databaseUrl);
  const empty = await ingestThroughApi(setup, file);
  await truncateUsage(setup.databaseUrl);

  // Two chunks at a time, one per core, each its own INSERT … SELECT generate_series.
  const chunk = 2_000_000;
  const seedStarted = performance.now();
  const until = seedStarted + GROWTH_SEED_S * 1000;
  let stored = 0;
  let perRoundMs = 0;
  const historyTo = Date.now() - 40 * DAY_MS;
  const historyFrom = historyTo - 365 * DAY_MS;
  const span = (historyTo - historyFrom) / GROWTH_EVENTS;
  let stopReason = `BENCH_GROWTH_EVENTS (${GROWTH_EVENTS.toLocaleString('en')}) reached`;
  while (stored < GROWTH_EVENTS) {
    if (performance.now() + perRoundMs > until) {
      stopReason = `the next ${2 * chunk / 1e6}M would pass the ${GROWTH_SEED_S} s seeding budget`;
      break;
    }
    if (freeDiskBytes(setup.dataDir) < MIN_FREE_DISK_BYTES) {
      stopReason = `less than ${MIN_FREE_DISK_BYTES / 1024 ** 3} GB of disk left`;
      break;
    }
    const started = performance.now();
    const counts = [Math.min(chunk, GROWTH_EVENTS - stored), Math.min(chunk, Math.max(0, GROWTH_EVENTS - stored - chunk))].filter((n) => n > 0);
    let offset = stored;
    await Promise.all(
      counts.map((count) => {
        const from = offset;
        offset += count;
        return seedEvents(setup, setup.customerIds, count, historyFrom + from * span, historyFrom + (from + count) * span, 'evt_00hist', from);
      }),
    );
    perRoundMs = performance.now() - started;
    stored = offset;
  }
  await sql(setup.databaseUrl, 'CHECKPOINT');
  await sql(setup.databaseUrl, 'ANALYZE usage_events');
  const seedS = (performance.now() - seedStarted) / 1000;
  const [size] = await sql<{ table: string; indexes: string }>(
    setup.databaseUrl,
    `SELECT pg_size_pretty(pg_table_size('usage_events')) AS table, pg_size_pretty(pg_indexes_size('usage_events')) AS indexes`,
  );

  const grownFile = join(dir, 'growth-full.jsonl');
  writeBatches(grownFile, setup.customerIds, BATCHES);
  const full = await ingestThroughApi(setup, grownFile);
  const emptyRate = empty.report.accepted / empty.report.seconds;
  const fullRate = full.report.accepted / full.report.seconds;
  console.log('');
  console.log(`(d) growth: ${BATCHES} batches of ${BATCH} through the API on empty tables, then with N events stored (older ids and timestamps, the same customers):`);
  console.log(
    `  N = ${stored.toLocaleString('en')} seeded by SQL in ${seedS.toFixed(0)} s (${(stored / seedS).toFixed(0)} events/s; stopped: ${stopReason}); usage_events ${size!.table} + indexes ${size!.indexes}`,
  );
  printApiRun('empty tables', empty);
  printApiRun(`with ${stored.toLocaleString('en')} stored`, full);
  console.log(`  ratio with N stored / empty: ${(fullRate / emptyRate).toFixed(3)}`);
}

async function setUp(databaseUrl: string, dataDir: string): Promise<Setup> {
  await applyPendingMigrations(databaseUrl);
  const db = createDatabase(databaseUrl, 2);
  try {
    const account = await createAccount(db, 'bench-usage');
    const channel = await createChannel(db, account.id, 'bench-usage');
    const { secret } = await createOperatorApiKey(db, { accountId: account.id, name: 'bench-usage' });
    const customerIds = await seedCustomers(db, account.id, channel.id, CUSTOMERS);
    const meterIds = await seedMeters(db, account.id);
    return { databaseUrl, dataDir, accountId: account.id, channelId: channel.id, secret, customerIds, meterIds };
  } finally {
    await db.$disconnect();
  }
}

const PHASES = ['ingest', 'visibility', 'summary', 'growth'] as const;
type Phase = (typeof PHASES)[number];

function selectedPhases(argv: string[]): Phase[] {
  const at = argv.indexOf('--phase');
  if (at === -1) return [...PHASES];
  const named = argv[at + 1]?.split(',') ?? [];
  for (const phase of named) if (!(PHASES as readonly string[]).includes(phase)) throw new Error(`--phase takes ${PHASES.join(', ')} (comma-separated), not ${phase}`);
  return named as Phase[];
}

async function main(): Promise<void> {
  const phases = selectedPhases(process.argv.slice(2));
  const dir = await mkdtemp(join(tmpdir(), 'bench-usage-'));
  const pgPort = await freePort();
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: pgPort, persistent: false, settings: STATEMENT_COUNTING_SETTINGS });
  try {
    await ensureDatabase(postgres.adminUrl, 'bench');
    const setup = await setUp(postgres.urlFor('bench'), postgres.dataDir);
    const counter = await StatementCounter.create(setup.databaseUrl);
    let capacity: number | undefined;
    if (phases.includes('ingest')) capacity = await ingestPhase(dir, setup, counter);
    if (phases.includes('visibility')) await visibilityPhase(dir, setup, capacity ?? (await measuredCapacity(dir, setup)));
    if (phases.includes('summary')) await summaryPhase(setup);
    if (phases.includes('growth')) await growthPhase(dir, setup);
    if (process.env.BENCH_STATEMENTS) console.log((await counter.topStatements()).join('\n'));
  } finally {
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
