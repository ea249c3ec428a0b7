import { randomBytes } from 'node:crypto';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { entryArgs, type EntryRuntime } from '../entry-points';
import { freePort } from '../net/free-port';

/** Runs a command to completion and returns its output; a failure carries its stderr. */
export function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): string {
  const result = spawnSync(command, args, { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

const owned = new Set<ChildProcess>();
let stopsWithSignals = false;

/**
 * Stops `child` with the bench. A bench stopped by SIGINT or SIGTERM otherwise leaves the API and
 * workers it started running, holding ports and CPU that the next run then measures against.
 */
export function ownChild<T extends ChildProcess>(child: T): T {
  if (!stopsWithSignals) {
    stopsWithSignals = true;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        for (const running of owned) running.kill('SIGTERM');
        process.exit(signal === 'SIGINT' ? 130 : 143);
      });
    }
  }
  owned.add(child);
  child.once('exit', () => owned.delete(child));
  return child;
}

/** Waits (up to 2 minutes: tsx compiles it on a busy machine) until the API under test answers its health check, or fails if it exits first. */
export async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error('the API process exited early');
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the API did not become healthy');
}

/** The API's pool in the benches; ceilings beside it get a pool of the same size. */
export const API_POOL_SIZE = 20;

export interface ApiUnderTest {
  port: number;
  /** The process itself, for a test that kills it the hard way. */
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * `api/main.ts` in a process of its own on a free port, with rate limits out of the way and no
 * Temporal unless `env` names one (the paths of bench:api and bench:invoices need none);
 * `BENCH_CPU_PROF=<dir>` writes a CPU profile. `runtime` `build` runs dist/api/main.js instead.
 */
export async function startApiUnderTest(root: string, databaseUrl: string, env: NodeJS.ProcessEnv = {}, runtime: EntryRuntime = 'source'): Promise<ApiUnderTest> {
  const port = await freePort();
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, ...entryArgs(root, 'api', runtime)], {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATABASE_POOL_SIZE: String(API_POOL_SIZE),
      PORT: String(port),
      LOG_LEVEL: 'silent',
      TEMPORAL_ADDRESS: '127.0.0.1:1',
      RATE_LIMITS: JSON.stringify({ '*': { ratePerSecond: 1e9, burst: 1e9 } }),
      // The API does not start without them (docs/configuration.md).
      SECRETS_KEY: process.env.SECRETS_KEY ?? randomBytes(32).toString('hex'),
      URL_SIGNING_KEY: process.env.URL_SIGNING_KEY ?? randomBytes(32).toString('hex'),
      ...env,
    },
  });
  return healthyProcess(child, port);
}

/** `child`, serving HTTP on `port`, once its /health answers; stopped (SIGTERM, awaited) if it never does. */
export async function healthyProcess(child: ChildProcess, port: number): Promise<ApiUnderTest> {
  ownChild(child);
  const stop = async () => {
    // A process killed by a signal has no exit code, and its 'exit' has already fired.
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitForHealth(`http://127.0.0.1:${port}/health`, child);
  } catch (error) {
    await stop();
    throw error;
  }
  return { port, child, stop };
}

/**
 * A ceiling server of the benches (bare-route.ts, invoice-ceiling.ts): its own file `entry`, run
 * with `--serve` in a process of its own as the API runs, against `databaseUrl` with a pool of
 * `poolSize` and a free port, once its /health answers. The file calls serveWhenAsked.
 */
export async function startCeilingServer(entry: string, databaseUrl: string, poolSize: number): Promise<ApiUnderTest> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', entry, '--serve'], {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: String(poolSize), PORT: String(port) },
  });
  return healthyProcess(child, port);
}

/** Serves when the file was started by startCeilingServer; an import of it serves nothing. */
export function serveWhenAsked(serve: () => Promise<void>): void {
  if (process.argv[2] !== '--serve') return;
  serve().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
