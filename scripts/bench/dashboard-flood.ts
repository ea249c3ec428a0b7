import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDatabase } from '../../prisma/client';
import { applyPendingMigrations } from '../db/migrations';
import { createAccount, createChannel, createOperatorApiKey } from '../operator/accounts';
import { ensureDatabase, startEmbeddedPostgres } from '../postgres/embedded';
import { freePort } from '../net/free-port';
import { apiClient } from './api-client';
import { seedPayers } from './payers';
import { ownChild, startApiUnderTest, type ApiUnderTest } from './processes';

/**
 * `npm run bench:dashboard-flood`: customers/get timed one request at a time against `api/main.ts`
 * at rest for `BENCH_IDLE_SECONDS` (30) after `BENCH_WARM_UP_SECONDS` (10) of the same, then
 * again while a flood of `FLOOD_AMOUNT` (3,000) bogus sign-in and accept-invitation requests over
 * 64 connections hits the same API process
 * (dashboard-flood-load.ts, a process of its own): once all from one address, once each from a
 * random address, which no per-address limit stops; then at rest again as long. p50/p95/p99 of
 * each, what the flood was answered, and last the ratio of each flooded p99 to the p99 of both
 * rests together (issue 40: at most 2). The rests last about as long as a flood and come before
 * and after, so that on a shared machine the others' load weighs on both sides alike: a rest of a
 * few seconds measured one quiet or one busy moment, and its p99 moved 0.6–18 ms between runs.
 */
const ROOT = resolve(__dirname, '../..');
const IDLE_MS = Number(process.env.BENCH_IDLE_SECONDS ?? 30) * 1000;
const WARM_UP_MS = Number(process.env.BENCH_WARM_UP_SECONDS ?? 10) * 1000;
const AMOUNT = Number(process.env.FLOOD_AMOUNT ?? 3000);
const CONNECTIONS = Number(process.env.FLOOD_CONNECTIONS ?? 64);
/** `FLOOD_VARIANTS=one` or `spread` runs that one alone (to profile it with `BENCH_CPU_PROF`). */
const VARIANTS = (process.env.FLOOD_VARIANTS ?? 'one,spread').split(',');

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Phase {
  name: string;
  latenciesMs: number[];
  flood?: { statusCodeStats: Record<string, { count: number }>; duration: number; errors: number };
}

async function timeOne(step: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await step();
  return performance.now() - started;
}

/** Times `step` over and over, one at a time, for as long as the flood process runs. */
async function underFlood(name: string, url: string, addresses: 'one' | 'spread', step: () => Promise<unknown>): Promise<Phase> {
  const child = ownChild(
    spawn(process.execPath, ['--import', 'tsx', join(__dirname, 'dashboard-flood-load.ts')], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, FLOOD_URL: url, FLOOD_AMOUNT: String(AMOUNT), FLOOD_CONNECTIONS: String(CONNECTIONS), FLOOD_ADDRESSES: addresses },
    }),
  );
  let output = '';
  let started: () => void;
  const flooding = new Promise<void>((done) => (started = done));
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.startsWith('flooding\n')) started();
  });
  const exited = new Promise<number | null>((done) => child.once('exit', done));
  let running = true;
  void exited.then(() => {
    running = false;
    started();
  });
  // tsx compiles the load script first, for a second or more: time only from its first request.
  await flooding;
  const latenciesMs: number[] = [];
  while (running) latenciesMs.push(await timeOne(step));
  if ((await exited) !== 0) throw new Error(`the flood process failed: ${output}`);
  return { name, latenciesMs, flood: JSON.parse(output.slice('flooding\n'.length)) };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-dashboard-flood-'));
  const pgPort = await freePort();
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: pgPort, persistent: false });
  let api: ApiUnderTest | undefined;
  try {
    await ensureDatabase(postgres.adminUrl, 'bench');
    const databaseUrl = postgres.urlFor('bench');
    await applyPendingMigrations(databaseUrl);
    const db = createDatabase(databaseUrl, 2);
    const account = await createAccount(db, 'bench');
    const channel = await createChannel(db, account.id, 'bench');
    const [payer] = await seedPayers(db, account.id, channel.id, 1);
    const { secret } = await createOperatorApiKey(db, { accountId: account.id, name: 'bench' });
    await db.$disconnect();

    // The flood names its addresses in X-Forwarded-For, as a proxy in front of the API would.
    api = await startApiUnderTest(ROOT, databaseUrl, { TRUST_PROXY: 'true' });
    const baseUrl = `http://127.0.0.1:${api.port}`;
    const post = apiClient(baseUrl, secret);
    const read = () => post('customers/get', { id: payer!.customerId });
    // Long enough for the JIT and the first collections of a new process: after 100 requests the
    // first rest's p99 still came out 2-3 times the second's.
    const warmUntil = performance.now() + WARM_UP_MS;
    while (performance.now() < warmUntil) await read();

    const atRest = async (name: string): Promise<Phase> => {
      const phase: Phase = { name, latenciesMs: [] };
      const until = performance.now() + IDLE_MS;
      while (performance.now() < until) phase.latenciesMs.push(await timeOne(read));
      return phase;
    };
    const idle = await atRest('idle, before');
    const phases = [idle];
    if (VARIANTS.includes('one')) phases.push(await underFlood('flood, one address', baseUrl, 'one', read));
    if (VARIANTS.includes('spread')) phases.push(await underFlood('flood, spread', baseUrl, 'spread', read));
    const idleAfter = await atRest('idle, after');
    phases.push(idleAfter);
    const idleBoth: Phase = { name: 'idle, both', latenciesMs: [...idle.latenciesMs, ...idleAfter.latenciesMs] };
    phases.push(idleBoth);

    const p = (phase: Phase, at: number) => percentile([...phase.latenciesMs].sort((a, b) => a - b), at);
    console.log('');
    console.log(`customers/get one request at a time, idle and under ${AMOUNT} bogus sign-in + accept-invitation requests over ${CONNECTIONS} connections:`);
    console.log('  phase                  requests   p50 ms   p95 ms   p99 ms   flood took   flood answered');
    for (const phase of phases) {
      const flood = phase.flood
        ? `${phase.flood.duration.toFixed(1).padStart(8)} s   ${Object.entries(phase.flood.statusCodeStats)
            .map(([status, { count }]) => `${count}× ${status}`)
            .join(', ')}${phase.flood.errors ? `, ${phase.flood.errors} errors` : ''}`
        : '';
      console.log(
        `  ${phase.name.padEnd(20)} ${String(phase.latenciesMs.length).padStart(9)} ${p(phase, 50).toFixed(2).padStart(8)} ${p(phase, 95).toFixed(2).padStart(8)} ${p(phase, 99).toFixed(2).padStart(8)}   ${flood}`,
      );
    }
    for (const phase of phases.filter((phase) => phase.flood)) {
      console.log(
        `ratio p99 ${phase.name} / idle: ${(p(phase, 99) / p(idleBoth, 99)).toFixed(2)} (before: ${(p(phase, 99) / p(idle, 99)).toFixed(2)}, after: ${(p(phase, 99) / p(idleAfter, 99)).toFixed(2)})`,
      );
    }
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
