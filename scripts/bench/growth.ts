import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { createDatabase } from '../../prisma/client';
import { applyPendingMigrations } from '../db/migrations';
import { createOperatorApiKey } from '../operator/accounts';
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../postgres/embedded';
import { freePort } from '../net/free-port';
import { startTemporalDevServer, type DevServer } from '../temporal/cli';
import { apiClient } from './api-client';
import { loadApiKeysGet } from './api';
import { invoicePhase, seedLoopsIn } from './invoices';
import { latencyOperations, percentile } from './latency';
import { p50, walkPages, type Walk } from './growth/page-walk';
import { FULL_SIZE, readSeed, seedGrowth, sizesAt, type GrowthSeed, type Sizes } from './growth/seed';
import { webhookBacklog } from './growth/webhook-backlog';
import { seedPayers } from './payers';
import { startApiUnderTest } from './processes';
import { seedActiveSubscription } from './subscription-seed';
import { perOperation, StatementCounter, STATEMENT_COUNTING_SETTINGS } from './statement-counts';

/**
 * `npm run bench:growth` (docs/performance-at-scale.md): the hot paths on an empty database and on
 * one grown by a year of a busy merchant (growth/seed.ts, BENCH_GROWTH_SCALE of the full size,
 * default 0.01), in the same run on the same PostgreSQL, the workload acting as the account that
 * holds half the data: bench:api's load, bench:invoices' sandbox loops, bench:latency's
 * operations, customers/list and invoices/list walked by cursor to page 1,000, and bench:webhooks'
 * backlog (BENCH_GROWTH_WEBHOOK_EVENTS, default 2,000, delivered by a worker without the
 * housekeeping workflows, on a Temporal dev server of this run). Per figure:
 * empty, grown, and the ratio (grown/empty for rates, empty/grown for latencies; goal ≥ 0.8);
 * for a figure short of it, the plans (EXPLAIN ANALYZE, BUFFERS, by auto_explain) of the
 * statements of one request on the grown database.
 *
 * BENCH_GROWTH_DATA_DIR keeps PostgreSQL's data directory, so a seed is made once per scale;
 * `--seed-only` seeds and stops.
 */
const ROOT = resolve(__dirname, '../..');
const SCALE = Number(process.env.BENCH_GROWTH_SCALE ?? 0.01);
const PAGE = Number(process.env.BENCH_GROWTH_PAGE ?? 1000);
const REPEATS = Number(process.env.BENCH_GROWTH_REPEATS ?? 50);
/** BENCH_GROWTH_GOAL: the ratio below which a figure is short and its plans are printed (a high value prints them all). */
const GOAL = Number(process.env.BENCH_GROWTH_GOAL ?? 0.8);
const WEBHOOK_EVENTS = Number(process.env.BENCH_GROWTH_WEBHOOK_EVENTS ?? 2_000);
/**
 * The second figure of each operation: shared buffers its statements hit or read per request
 * (pg_stat_statements), the plans' own work, which the machine's load does not move.
 */
const BLOCKS = 'buffers/request';
/** Plans printed per short figure, the slowest statements of its request. */
const PLANS_SHOWN = 8;
/** The empty database holds only what the walk needs to reach page PAGE (page size 20) in the account: about 21k of each list's rows. */
const WALK_SIZES: Sizes = { ...sizesAt(0), customers: 38 * 1_110, invoices: 50_000 };

/** The load: few checkpoints, no full pages after them, no autovacuum (the seed vacuums each table once it is loaded). */
const SEED_SETTINGS = { max_wal_size: '2GB', checkpoint_timeout: '30min', full_page_writes: 'off', autovacuum: 'off', synchronous_commit: 'off' };
/** Plans on demand: auto_explain is loaded but logs nothing until a database setting asks (explainOnce). */
const MEASURE_SETTINGS = {
  ...STATEMENT_COUNTING_SETTINGS,
  shared_preload_libraries: 'pg_stat_statements,auto_explain',
  logging_collector: 'on',
  log_directory: 'log',
  log_filename: 'bench-growth.log',
};

const load = () => loadavg().map((l) => l.toFixed(2)).join(' ');
const log = (line: string) => console.log(`[growth ${new Date().toISOString().slice(11, 19)}, load ${load()}] ${line}`);

interface Access {
  accountId: string;
  channelId: string;
}

type Post = (operation: string, body: unknown) => Promise<any>;
/** Makes what a figure's request needs (through `post`, an API without plans), and returns the request. */
type ExplainStep = (post: Post, context: { databaseUrl: string; access: Access; keyId: string }) => Promise<(post: Post) => Promise<void>>;

interface Figure {
  name: string;
  unit: string;
  /** true for rates (requests/s), false for latencies. */
  rate: boolean;
  empty: number;
  grown: number;
  /** One request of the figure's operation, for its plans on the grown database. */
  explain: ExplainStep;
}

const ratioOf = (f: Figure) => (f.rate ? f.grown / f.empty : f.empty / f.grown);

async function sizeReport(databaseUrl: string): Promise<string[]> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const total = await client.query(`SELECT pg_size_pretty(pg_database_size(current_database())) AS size`);
    const tables = await client.query(
      `SELECT relname, n_live_tup, pg_size_pretty(pg_relation_size(relid)) AS heap, pg_size_pretty(pg_indexes_size(relid)) AS indexes
       FROM pg_stat_user_tables WHERE schemaname = 'public' ORDER BY pg_total_relation_size(relid) DESC LIMIT 12`,
    );
    return [
      `database ${total.rows[0].size}`,
      ...tables.rows.map((r) => `  ${r.relname.padEnd(28)} ${Number(r.n_live_tup).toLocaleString('en').padStart(12)} rows   heap ${r.heap.padStart(8)}   indexes ${r.indexes.padStart(8)}`),
    ];
  } finally {
    await client.end();
  }
}

/** Seeds BENCH_GROWTH_SCALE into `grown` unless a seed at that scale is there, on a server tuned for the load. */
async function ensureSeeded(dataDir: string): Promise<GrowthSeed> {
  const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort(), persistent: true, settings: SEED_SETTINGS });
  try {
    await ensureDatabase(postgres.adminUrl, 'grown');
    const url = postgres.urlFor('grown');
    await applyPendingMigrations(url);
    const client = new Client({ connectionString: url });
    await client.connect();
    const found = await readSeed(client, SCALE).finally(() => client.end());
    if (found) {
      log(`grown database at scale ${SCALE} found (seeded ${found.seededAt}), in ${postgres.dataDir}`);
      for (const line of await sizeReport(url)) log(line);
      return found;
    }
    const sizes = sizesAt(SCALE);
    log(`seeding scale ${SCALE} into ${postgres.dataDir}: ${Object.entries(sizes).map(([k, v]) => `${k} ${v.toLocaleString('en')}`).join(', ')} (full: ${FULL_SIZE.invoices.toLocaleString('en')} invoices)`);
    const started = performance.now();
    const seed = await seedGrowth(url, sizes, SCALE);
    log(`seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    for (const line of await sizeReport(url)) log(line);
    return seed;
  } finally {
    await postgres.stop();
  }
}

/** `empty`: dropped and made again, migrated, with the walk's rows (WALK_SIZES). */
async function freshEmpty(postgres: EmbeddedPostgresHandle): Promise<Access> {
  const admin = new Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  await admin.query('DROP DATABASE IF EXISTS empty WITH (FORCE)');
  await admin.end();
  await ensureDatabase(postgres.adminUrl, 'empty');
  await applyPendingMigrations(postgres.urlFor('empty'));
  const seed = await seedGrowth(postgres.urlFor('empty'), WALK_SIZES, 0, () => undefined);
  return { accountId: seed.accounts[0]!.id, channelId: seed.accounts[0]!.channelId };
}

/** Every figure on one database, acting as `access`. */
async function measure(databaseUrl: string, access: Access, walks: Walk[], temporalAddress: string): Promise<Map<string, number>> {
  const values = new Map<string, number>();
  const db = createDatabase(databaseUrl, 2);
  const key = await createOperatorApiKey(db, { accountId: access.accountId, name: 'bench-growth' });
  const loops = await seedLoopsIn(db, access.accountId, access.channelId, 'bench-growth', 'sandbox');
  await db.$disconnect();
  const counter = await StatementCounter.create(databaseUrl);

  await counter.waitForOtherSessionsToEnd();
  const before = await counter.snapshot();
  let api = await startApiUnderTest(ROOT, databaseUrl);
  try {
    const { report, warmRequests } = await loadApiKeysGet(api.port, key.secret, key.row.id);
    await api.stop();
    await counter.waitForOtherSessionsToEnd();
    const counts = perOperation(before, await counter.snapshot(), warmRequests + report.requests.total);
    values.set('api-keys/get under load', report.requests.average);
    values.set('api-keys/get under load p99', report.latency.p99);
    values.set(`api-keys/get ${BLOCKS}`, counts.blocks);
    log(`api-keys/get ${report.requests.average.toFixed(0)} requests/s, p99 ${report.latency.p99} ms, ${counts.blocks.toFixed(1)} ${BLOCKS}`);
  } finally {
    await api.stop();
  }

  const invoices = await invoicePhase(databaseUrl, counter, loops);
  values.set('invoices create → finalize → pay (sandbox)', invoices.load.cycles / invoices.load.seconds);
  values.set(`invoices create → finalize → pay ${BLOCKS}`, invoices.counts.blocks);
  log(`invoices ${(invoices.load.cycles / invoices.load.seconds).toFixed(1)} paid/s, ${invoices.load.errors} errors, ${invoices.counts.blocks.toFixed(1)} ${BLOCKS}`);

  api = await startApiUnderTest(ROOT, databaseUrl);
  try {
    for (const timing of await latencyOperations(databaseUrl, access, api, counter)) {
      const sorted = [...timing.latenciesMs].sort((a, b) => a - b);
      values.set(`${timing.name} p50`, percentile(sorted, 50));
      values.set(`${timing.name} ${BLOCKS}`, timing.counts!.blocks);
      log(`${timing.name} p50 ${percentile(sorted, 50).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms, ${timing.counts!.blocks.toFixed(1)} ${BLOCKS}`);
    }
    const post = apiClient(`http://127.0.0.1:${api.port}`, key.secret);
    for (const walk of walks) {
      const timing = await walkPages(post, walk, PAGE, REPEATS, async () => (await counter.snapshot()).blocks);
      values.set(`${walk.name}, first page p50`, p50(timing.first));
      values.set(`${walk.name}, first page ${BLOCKS}`, timing.firstBlocks);
      if (timing.deep.length) {
        values.set(`${walk.name}, page ${PAGE} p50`, p50(timing.deep));
        values.set(`${walk.name}, page ${PAGE} ${BLOCKS}`, timing.deepBlocks);
      }
      log(
        `${walk.name}: first page p50 ${p50(timing.first).toFixed(2)} ms, ${timing.firstBlocks.toFixed(1)} ${BLOCKS}; page ${PAGE} ` +
          (timing.deep.length ? `p50 ${p50(timing.deep).toFixed(2)} ms, ${timing.deepBlocks.toFixed(1)} ${BLOCKS}` : 'not reached'),
      );
    }
  } finally {
    await api.stop();
  }

  // A delivery is the backlog's request: its buffers are those of its commit and of the worker's statements.
  const backlog = await webhookBacklog(ROOT, databaseUrl, access, temporalAddress, counter, WEBHOOK_EVENTS);
  values.set('webhook backlog deliveries', backlog.perSecond);
  values.set(`webhook backlog ${BLOCKS}`, backlog.blocks);
  log(`webhook backlog ${backlog.perSecond.toFixed(0)} deliveries/s, ${backlog.blocks.toFixed(1)} ${BLOCKS}`);
  return values;
}

/** The walks: filtered as a merchant filters them, the same filters on both databases. */
function walksFor(): Walk[] {
  return [
    { name: 'customers/list status ACTIVE', operation: 'customers/list', filters: { status: { operator: 'EQ', value: 'ACTIVE' } } },
    { name: 'invoices/list status PAID', operation: 'invoices/list', filters: { status: { operator: 'EQ', value: 'PAID' } } },
    // 2 % of the invoices: a status read mostly through rows of other statuses unless an index leads with it.
    { name: 'invoices/list status DUNNING', operation: 'invoices/list', filters: { status: { operator: 'EQ', value: 'DUNNING' } } },
  ];
}

/** How one request of each figure's operation is made again for its plans: what it needs made first, then the request. */
function explainSteps(walks: Walk[]): Map<string, ExplainStep> {
  const steps = new Map<string, ExplainStep>();
  const keyGet: ExplainStep = async (_, { keyId }) => async (post) => void (await post('api-keys/get', { id: keyId }));
  steps.set('api-keys/get under load', keyGet);
  steps.set('api-keys/get under load p99', keyGet);
  steps.set(`api-keys/get ${BLOCKS}`, keyGet);
  // bench:latency's operations and the sandbox loop's: one round of each, for a payer of the account.
  const round: ExplainStep = async (_, { databaseUrl, access }) => {
    const db = createDatabase(databaseUrl, 1);
    const [payer] = await seedPayers(db, access.accountId, access.channelId, 1);
    const subscription = await seedActiveSubscription(db, { ...access, ...payer! }, [1_000, 2_500, 4_900, 9_900, 19_900]);
    await db.$disconnect();
    return async (post) => {
      await post('customers/get', { id: payer!.customerId });
      const draft = await post('invoices/create', { customer_id: payer!.customerId, currency: 'EUR', line_items: [{ amount: 1_999, description: 'Bench', quantity: 2 }] });
      await post('invoices/get', { id: draft.id });
      await post('invoices/finalize', { id: draft.id });
      await post('invoices/pay', { id: draft.id, payment_instrument_id: payer!.instrumentId });
      await post('invoices/preview', { subscription_id: subscription.id });
    };
  };
  steps.set('invoices create → finalize → pay (sandbox)', round);
  steps.set(`invoices create → finalize → pay ${BLOCKS}`, round);
  for (const operation of ['customers/get', 'invoices/create', 'invoices/get', 'invoices/finalize', 'invoices/pay', 'invoices/preview', 'preview (update)']) {
    steps.set(`${operation} p50`, round);
    steps.set(`${operation} ${BLOCKS}`, round);
  }
  for (const walk of walks) {
    const ask = (post: Post, token?: string) =>
      post(walk.operation, { filters: walk.filters, pagination: { page_size: 20, ...(token ? { next_page_token: token } : {}) } });
    const first: ExplainStep = async () => async (post) => void (await ask(post));
    const deep: ExplainStep = async (post) => {
      let token: string | undefined;
      for (let n = 1; n < PAGE; n++) token = (await ask(post, token)).pagination.next_page_token;
      return async (again) => void (await ask(again, token));
    };
    steps.set(`${walk.name}, first page p50`, first);
    steps.set(`${walk.name}, first page ${BLOCKS}`, first);
    steps.set(`${walk.name}, page ${PAGE} p50`, deep);
    steps.set(`${walk.name}, page ${PAGE} ${BLOCKS}`, deep);
  }
  return steps;
}

/**
 * The plans of one request on `database`: what the step needs made through an API of its own,
 * then auto_explain switched on for that database (EXPLAIN ANALYZE with BUFFERS of every
 * statement), the request through a fresh API (whose sessions take the setting), switched off;
 * the plans are read back from the server's log, from the request's first statement on.
 */
async function explainOnce(postgres: EmbeddedPostgresHandle, database: string, access: Access, step: ExplainStep): Promise<string> {
  const databaseUrl = postgres.urlFor(database);
  const db = createDatabase(databaseUrl, 1);
  const key = await createOperatorApiKey(db, { accountId: access.accountId, name: 'bench-growth-explain' });
  await db.$disconnect();
  const context = { databaseUrl, access, keyId: key.row.id };
  let api = await startApiUnderTest(ROOT, databaseUrl);
  let request: (post: Post) => Promise<void>;
  try {
    request = await step(apiClient(`http://127.0.0.1:${api.port}`, key.secret), context);
  } finally {
    await api.stop();
  }
  const admin = new Client({ connectionString: postgres.adminUrl });
  await admin.connect();
  const logFile = join(postgres.dataDir, 'log', 'bench-growth.log');
  const settings = ['log_min_duration = 0', 'log_analyze = on', 'log_buffers = on', 'log_timing = on', 'log_nested_statements = on'];
  let from = 0;
  try {
    for (const setting of settings) await admin.query(`ALTER DATABASE "${database}" SET auto_explain.${setting}`);
    api = await startApiUnderTest(ROOT, databaseUrl);
    try {
      from = (await stat(logFile)).size;
      await request(apiClient(`http://127.0.0.1:${api.port}`, key.secret));
    } finally {
      await api.stop();
    }
  } finally {
    await admin.query(`ALTER DATABASE "${database}" RESET ALL`);
    await admin.end();
  }
  const text = (await readFile(logFile)).subarray(from).toString('utf8');
  // Each plan is one log entry: "<time> UTC [pid] LOG:  duration: … Query Text: … <plan>".
  const plans = text
    .split(/\n(?=\S+ \S+ UTC \[\d+\] LOG:)/)
    .filter((entry) => entry.includes('duration:') && entry.includes('Query Text:'))
    .map((p) => ({ ms: Number(/duration: ([\d.]+) ms/.exec(p)?.[1]), plan: p.replace(/^\S+ \S+ UTC \[\d+\] LOG:\s+/, '') }))
    .sort((a, b) => b.ms - a.ms);
  const rest = plans.slice(PLANS_SHOWN);
  const more = rest.length ? `\n(${rest.length} more statements, ${rest.reduce((sum, p) => sum + p.ms, 0).toFixed(2)} ms together)` : '';
  return plans.slice(0, PLANS_SHOWN).map((p) => p.plan).join('\n') + more;
}

async function main(): Promise<void> {
  const keep = process.env.BENCH_GROWTH_DATA_DIR;
  const scratch = keep ? undefined : await mkdtemp(join(tmpdir(), 'bench-growth-'));
  const dataDir = keep ? resolve(keep) : join(scratch!, 'pg');
  try {
    const seed = await ensureSeeded(dataDir);
    if (process.argv.includes('--seed-only')) return;

    const postgres = await startEmbeddedPostgres({ dataDir, port: await freePort(), persistent: true, settings: MEASURE_SETTINGS });
    const temporalDir = await mkdtemp(join(tmpdir(), 'bench-growth-temporal-'));
    let temporal: DevServer | undefined;
    try {
      temporal = await startTemporalDevServer({ dataDir: temporalDir, port: await freePort(), uiPort: await freePort() });
      const emptyAccess = await freshEmpty(postgres);
      const grownAccess = { accountId: seed.accounts[0]!.id, channelId: seed.accounts[0]!.channelId };
      const walks = walksFor();
      log('measuring on the empty database');
      const empty = await measure(postgres.urlFor('empty'), emptyAccess, walks, temporal.address);
      log(`measuring on the grown database (scale ${SCALE})`);
      const grown = await measure(postgres.urlFor('grown'), grownAccess, walks, temporal.address);

      const steps = explainSteps(walks);
      const figures: Figure[] = [...empty.keys()]
        .filter((name) => grown.has(name))
        .map((name) => ({
          name,
          unit: name.includes('p50') || name.includes('p99') ? 'ms' : name.includes(BLOCKS) ? 'buffers' : '/s',
          rate: !(name.includes('p50') || name.includes('p99') || name.includes(BLOCKS)),
          empty: empty.get(name)!,
          grown: grown.get(name)!,
          explain: steps.get(name)!,
        }));
      console.log('');
      console.log(`bench:growth, scale ${SCALE} (${sizesAt(SCALE).invoices.toLocaleString('en')} invoices, ${sizesAt(SCALE).outboxEvents.toLocaleString('en')} outbox events), load average ${load()}`);
      console.log(`  ${'figure'.padEnd(52)} ${'empty'.padStart(10)} ${'grown'.padStart(10)}   ratio (goal ≥ ${GOAL})`);
      for (const f of figures) {
        const ratio = ratioOf(f);
        console.log(
          `  ${`${f.name} (${f.unit})`.padEnd(52)} ${f.empty.toFixed(2).padStart(10)} ${f.grown.toFixed(2).padStart(10)}   ${ratio.toFixed(2)}${ratio < GOAL ? '  SHORT' : ''}`,
        );
      }
      // Figures made by the same request (bench:latency's round) share one look at its plans.
      const short = new Map<ExplainStep, Figure[]>();
      for (const f of figures.filter((f) => ratioOf(f) < GOAL && steps.has(f.name))) short.set(f.explain, [...(short.get(f.explain) ?? []), f]);
      for (const [step, shortOnes] of short) {
        console.log('');
        console.log(`plans on the grown database, slowest first, for ${shortOnes.map((f) => `${f.name} (ratio ${ratioOf(f).toFixed(2)})`).join(', ')}:`);
        console.log(await explainOnce(postgres, 'grown', grownAccess, step));
      }
      const worst = Math.min(...figures.map(ratioOf));
      console.log('');
      console.log(`ratio grown/empty, worst figure (rates grown/empty, latencies empty/grown; goal ≥ ${GOAL}): ${worst.toFixed(2)}`);
    } finally {
      await temporal?.stop();
      await rm(temporalDir, { recursive: true, force: true });
      await postgres.stop();
    }
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
