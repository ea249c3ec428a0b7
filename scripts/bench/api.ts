import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDatabase } from '../../prisma/client';
import { applyPendingMigrations } from '../db/migrations';
import { createAccount, createOperatorApiKey } from '../operator/accounts';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { freePort } from '../net/free-port';
import { startBareRoute } from './bare-route';
import { API_POOL_SIZE, run, startApiUnderTest, type ApiUnderTest } from './processes';
import { formatPerOperation, perOperation, StatementCounter, STATEMENT_COUNTING_SETTINGS } from './statement-counts';

/**
 * `npm run bench:api`: an authenticated `api-keys/get` under load from a separate process
 * (autocannon), beside two ceilings in the same run on the same PostgreSQL: the bare route
 * (Fastify + one `pg` pool of the API's size, one primary-key select, the same load) and
 * `pgbench -S`. The API's statements, transactions and rows written per request are counted
 * from the first request to the API's exit.
 */
const ROOT = resolve(__dirname, '../..');
const DURATION_S = Number(process.env.BENCH_DURATION ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

/** autocannon's JSON report, the fields read here. */
export interface AutocannonReport {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}

/**
 * The load of this bench against the API on `port`: one checked request, 3 s to warm up, then
 * DURATION_S measured, from a separate process. Returns the measured report, the requests made
 * before it, and the autocannon arguments for another target under the same load.
 */
export async function loadApiKeysGet(port: number, secret: string, keyId: string) {
  const url = `http://127.0.0.1:${port}/v2/api-keys/get`;
  const check = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id: keyId }),
  });
  if (check.status !== 200) throw new Error(`api-keys/get answered ${check.status}`);

  const autocannonArgs = (duration: number, target = url) => [
    require.resolve('autocannon/autocannon.js'),
    '--json',
    '-c', String(CONNECTIONS),
    '-d', String(duration),
    '-m', 'POST',
    '-H', `authorization=Bearer ${secret}`,
    '-H', 'content-type=application/json',
    '-b', JSON.stringify({ id: keyId }),
    target,
  ];
  const warm = JSON.parse(run(process.execPath, autocannonArgs(3))) as AutocannonReport;
  const report = JSON.parse(run(process.execPath, autocannonArgs(DURATION_S))) as AutocannonReport;
  return { report, warmRequests: 1 + warm.requests.total, autocannonArgs };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-api-'));
  const pgPort = await freePort();
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: pgPort, persistent: false, settings: STATEMENT_COUNTING_SETTINGS });
  let api: ApiUnderTest | undefined;
  let bare: ApiUnderTest | undefined;
  try {
    await ensureDatabase(postgres.adminUrl, 'bench');
    const databaseUrl = postgres.urlFor('bench');
    await applyPendingMigrations(databaseUrl);
    const db = createDatabase(databaseUrl, 2);
    const account = await createAccount(db, 'bench');
    const { row, secret } = await createOperatorApiKey(db, { accountId: account.id, name: 'bench' });
    await db.$disconnect();
    const counter = await StatementCounter.create(databaseUrl);
    await counter.waitForOtherSessionsToEnd();
    const before = await counter.snapshot();

    api = await startApiUnderTest(ROOT, databaseUrl);
    const port = api.port;

    const { report, warmRequests, autocannonArgs } = await loadApiKeysGet(port, secret, row.id);
    const non2xx = report.non2xx + report.errors;
    await api.stop();
    await counter.waitForOtherSessionsToEnd();
    const counts = perOperation(before, await counter.snapshot(), warmRequests + report.requests.total);
    if (process.env.BENCH_STATEMENTS) console.log((await counter.topStatements()).join('\n'));

    bare = await startBareRoute(databaseUrl, API_POOL_SIZE);
    const bareUrl = `http://127.0.0.1:${bare.port}/bare`;
    run(process.execPath, autocannonArgs(3, bareUrl));
    const bareReport = JSON.parse(run(process.execPath, autocannonArgs(DURATION_S, bareUrl)));
    await bare.stop();

    const pgEnv = { ...process.env, PGPASSWORD: 'postgres' };
    const pgArgs = ['-h', '127.0.0.1', '-p', String(pgPort), '-U', 'postgres'];
    run('pgbench', [...pgArgs, '-i', '-q', '-s', '10', 'bench'], pgEnv);
    const pgOut = run('pgbench', [...pgArgs, '-S', '-n', '-c', String(CONNECTIONS), '-j', '2', '-T', String(DURATION_S), 'bench'], pgEnv);
    const pgTps = Number(/tps = ([\d.]+)/.exec(pgOut)?.[1]);
    const pgLatency = Number(/latency average = ([\d.]+) ms/.exec(pgOut)?.[1]);

    const rps = report.requests.average;
    console.log('');
    console.log(`api-keys/get (authenticated), ${CONNECTIONS} connections, ${DURATION_S}s, load from a separate process:`);
    console.log(`  requests/s  ${rps.toFixed(0)}   p50 ${report.latency.p50} ms   p99 ${report.latency.p99} ms   non-2xx/errors ${non2xx}`);
    console.log(`  ${formatPerOperation(counts, 'request')}`);
    const bareRps = bareReport.requests.average;
    console.log(`bare route (Fastify + pg pool of ${API_POOL_SIZE}, one primary-key select), same load:`);
    console.log(
      `  requests/s  ${bareRps.toFixed(0)}   p50 ${bareReport.latency.p50} ms   p99 ${bareReport.latency.p99} ms   non-2xx/errors ${bareReport.non2xx + bareReport.errors}`,
    );
    console.log(`pgbench -S (select-only), same PostgreSQL, ${CONNECTIONS} clients, ${DURATION_S}s:`);
    console.log(`  transactions/s  ${pgTps.toFixed(0)}   average latency ${pgLatency} ms`);
    console.log(`ratio API / pgbench -S: ${(rps / pgTps).toFixed(3)}`);
    console.log(`ratio API / bare route: ${(rps / bareRps).toFixed(3)}`);
  } finally {
    await api?.stop();
    await bare?.stop();
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
