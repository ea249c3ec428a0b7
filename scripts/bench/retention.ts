import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { createDatabase } from '../../prisma/client';
import { applyPendingMigrations } from '../db/migrations';
import { createAccount, createOperatorApiKey } from '../operator/accounts';
import { freePort } from '../net/free-port';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { loadApiKeysGet, type AutocannonReport } from './api';
import { ownChild, startApiUnderTest, type ApiUnderTest } from './processes';
import { seedExpiredRows } from './retention-seed';

/**
 * `npm run bench:retention`: BENCH_RETENTION_ROWS expired rows (default 10,000,000) seeded over
 * the purged tables with `INSERT … SELECT generate_series`, then bench:api's load (api-keys/get,
 * BENCH_DURATION seconds after a 3 s warm-up) alone, then the same load again and again, window
 * after window, while the retention purge runs beside it in a process of its own (the worker's
 * service functions, in the workflow's order) until the purge has deleted every row, then alone
 * once more. Prints rows purged, the purge's duration and rows/s, req/s and p99 alone (before,
 * after, their mean) and beside the purge, and last the ratio (beside / mean alone; the goal is
 * ≥ 0.9).
 */
const ROOT = resolve(__dirname, '../..');
const ROWS = Number(process.env.BENCH_RETENTION_ROWS ?? 10_000_000);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 15);

interface PurgeOutcome {
  deleted: Record<string, number>;
  seconds: Record<string, number>;
  ms: number;
  endedAt: number;
}

interface Window {
  report: AutocannonReport;
  endedAt: number;
}

/** The purge process, once it has started deleting; `outcome` is set when it ends. */
async function startPurge(databaseUrl: string): Promise<{ finished: Promise<PurgeOutcome>; outcome?: PurgeOutcome }> {
  const child = ownChild(
    spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/bench/retention-purge.ts')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, DATABASE_URL: databaseUrl },
    }),
  );
  let output = '';
  let started: () => void;
  const running = new Promise<void>((resolved) => (started = resolved));
  child.stdout!.on('data', (chunk) => {
    output += chunk;
    if (output.includes('\n')) started();
  });
  const purge: { finished: Promise<PurgeOutcome>; outcome?: PurgeOutcome } = {
    // 'close', not 'exit': the output is read to its end only then.
    finished: new Promise<PurgeOutcome>((resolved, failed) =>
      child.once('close', (code) => {
        started();
        if (code !== 0) return failed(new Error(`the purge exited with ${code}`));
        try {
          purge.outcome = JSON.parse(output.trim().split('\n').at(-1)!) as PurgeOutcome;
          resolved(purge.outcome);
        } catch (error) {
          failed(error);
        }
      }),
    ),
  };
  await running;
  return purge;
}

const load = () => loadavg().map((value) => value.toFixed(2)).join(' ');
const describe = (rps: number, p99: number, errors: number) => `requests/s  ${rps.toFixed(0)}   p99 ${p99} ms   non-2xx/errors ${errors}`;

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-retention-'));
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort(), persistent: false });
  let api: ApiUnderTest | undefined;
  try {
    await ensureDatabase(postgres.adminUrl, 'bench');
    const databaseUrl = postgres.urlFor('bench');
    await applyPendingMigrations(databaseUrl);
    const db = createDatabase(databaseUrl, 2);
    const account = await createAccount(db, 'bench');
    const { row, secret } = await createOperatorApiKey(db, { accountId: account.id, name: 'bench' });
    const endpoint = await db.webhookEndpoint.create({
      data: { id: 'whep_seed', accountId: account.id, url: 'https://receiver.example.test/', status: 'INACTIVE', eventTypes: [], createdAt: new Date(), updatedAt: new Date() },
    });
    await db.$disconnect();

    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    const seedStarted = performance.now();
    const seeded = await seedExpiredRows(client, ROWS, account.id, endpoint.id, (table, done) =>
      console.log(`[seed] ${table} ${done.toLocaleString('en')} rows, ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`),
    );
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    await client.end();
    const total = [...seeded.values()].reduce((sum, count) => sum + count, 0);

    api = await startApiUnderTest(ROOT, databaseUrl);
    const loadBefore = load();
    const alone = (await loadApiKeysGet(api.port, secret, row.id)).report;
    const loadAlone = load();

    const purge = await startPurge(databaseUrl);
    const windows: Window[] = [];
    // The load runs in windows until the purge is over; between windows the purge's end is heard.
    while (!purge.outcome) {
      const { report } = await loadApiKeysGet(api.port, secret, row.id);
      windows.push({ report, endedAt: Date.now() });
      console.log(`[beside the purge] window ${windows.length}: ${describe(report.requests.average, report.latency.p99, report.non2xx + report.errors)}`);
      await Promise.race([purge.finished.catch(() => undefined), new Promise((next) => setTimeout(next, 200))]);
    }
    const loadBeside = load();
    const outcome = await purge.finished;
    // Alone again once the purge is over: on a shared machine the load of others moves between
    // the two runs, and the mean of the runs before and after the purge brackets its window.
    const after = (await loadApiKeysGet(api.port, secret, row.id)).report;
    const loadAfter = load();
    const aloneRps = (alone.requests.average + after.requests.average) / 2;
    const aloneP99 = Math.max(alone.latency.p99, after.latency.p99);
    const purged = Object.values(outcome.deleted).reduce((sum, count) => sum + count, 0);
    // Windows that ended while the purge still ran; the first one when the purge was shorter.
    const inside = windows.filter((window) => window.endedAt <= outcome.endedAt);
    const measured = inside.length > 0 ? inside : windows.slice(0, 1);
    const besideRps = measured.reduce((sum, window) => sum + window.report.requests.average, 0) / measured.length;
    const besideP99 = Math.max(...measured.map((window) => window.report.latency.p99));
    // The measured part of a window is its last DURATION_S seconds (loadApiKeysGet warms up first).
    const coveredSeconds = Math.max(0, (outcome.endedAt - (windows[0]!.endedAt - DURATION_S * 1000)) / 1000);
    const besideErrors = measured.reduce((sum, window) => sum + window.report.non2xx + window.report.errors, 0);

    console.log('');
    console.log(`seeded ${total.toLocaleString('en')} expired rows in ${seedSeconds.toFixed(1)} s (${(total / seedSeconds).toFixed(0)} rows/s): ${[...seeded].map(([t, n]) => `${t} ${n}`).join(', ')}`);
    console.log(`purge: ${purged.toLocaleString('en')} rows in ${(outcome.ms / 1000).toFixed(1)} s, ${(purged / (outcome.ms / 1000)).toFixed(0)} rows/s, at most ${process.env.RETENTION_BATCH_SIZE ?? 5000} rows per statement`);
    console.log(`  ${Object.entries(outcome.deleted).map(([t, n]) => `${t} ${n} in ${outcome.seconds[t]!.toFixed(1)} s`).join(', ')}`);
    if (purged !== total) console.log(`  NOT every seeded row was purged: ${total - purged} left`);
    console.log(`api-keys/get alone before the purge (load average ${loadBefore} before, ${loadAlone} after):`);
    console.log(`  ${describe(alone.requests.average, alone.latency.p99, alone.non2xx + alone.errors)}`);
    console.log(`api-keys/get alone after the purge (load average ${loadAfter}):`);
    console.log(`  ${describe(after.requests.average, after.latency.p99, after.non2xx + after.errors)}`);
    console.log(`api-keys/get alone, both runs: mean requests/s ${aloneRps.toFixed(0)}, worse p99 ${aloneP99} ms`);
    console.log(
      inside.length > 0
        ? `api-keys/get beside the purge, ${inside.length} window(s) of ${DURATION_S} s that ended before it did; p99 the worst window's (load average ${loadBeside}):`
        : `api-keys/get beside the purge, which ended inside the first window, ${Math.min(coveredSeconds, DURATION_S).toFixed(1)} s into its ${DURATION_S} measured seconds: that window (load average ${loadBeside}):`,
    );
    console.log(`  ${describe(besideRps, besideP99, besideErrors)}`);
    console.log(`p99 beside / alone: ${(besideP99 / aloneP99).toFixed(2)}`);
    console.log(`ratio requests/s beside the purge / alone (mean of before and after): ${(besideRps / aloneRps).toFixed(3)}`);
  } finally {
    await api?.stop();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
