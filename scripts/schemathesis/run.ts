import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../net/free-port';
import { ensureSchemathesis } from './ensure-schemathesis';
import { schemathesisSummary, summarySection } from './summary';
import { createFixtures, type Fixtures } from './fixtures';

/**
 * `npm run test:schemathesis`: the API contract check of docs/testing.md ("API contract
 * checks"). Starts the whole platform as `npm start` does (embedded PostgreSQL, the Temporal dev
 * server, worker and API) in a throwaway data directory, takes the key its first start creates,
 * and lets schemathesis generate requests from /openapi.json. Exits with schemathesis' status:
 * non-zero on any failed check. Extra arguments go to `schemathesis run` (e.g.
 * `--include-path /v2/customers/create` while working on one operation).
 */
const ROOT = resolve(__dirname, '../..');
const ARTIFACTS = join(ROOT, 'test-artifacts/schemathesis');

/**
 * Checks that cannot apply to this API, each explained in docs/testing.md:
 * - unsupported_method wants 405 for a method the document does not list; section 7.1 answers
 *   404 NOT_FOUND for an endpoint that does not exist, and `GET /v2/…` is one (docs/errors.md).
 */
const EXCLUDED_CHECKS = ['unsupported_method'];

/**
 * Seconds schemathesis waits for an answer (its default is 10). A contract check, not a latency
 * one: on two cores shared with the whole platform a request held by a busy workflow may take
 * longer, and the platform's own `slow request` lines (printed below) say which and how long.
 */
const REQUEST_TIMEOUT_S = 30;

/** Per operation; bounded so the run fits its time budget on two cores (docs/testing.md). */
const MAX_EXAMPLES = Number(process.env.SCHEMATHESIS_MAX_EXAMPLES ?? 5);

interface Platform {
  child: ChildProcess;
  baseUrl: string;
  secret: string;
  channelId: string;
  exited: Promise<number | null>;
  /** Everything the platform (API, worker, Temporal, PostgreSQL) printed so far: kept beside schemathesis' output. */
  output: () => string;
}

async function startPlatform(dataDir: string): Promise<Platform> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    POSTGRES_PORT: String(await freePort()),
    TEMPORAL_PORT: String(await freePort()),
    TEMPORAL_UI_PORT: String(await freePort()),
    METRICS_PORT: String(await freePort()),
    // Thousands of requests from one key in a few minutes; the quotas are not what is checked here.
    RATE_LIMITS: JSON.stringify({ '*': { ratePerSecond: 100_000, burst: 100_000 }, 'api-keys:create': { ratePerSecond: 100_000, burst: 100_000 }, 'api-keys:rotate': { ratePerSecond: 100_000, burst: 100_000 } }),
  };
  for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'TEMPORAL_CONFIG_FILE', 'TEMPORAL_PROFILE', 'PUBLIC_URL']) delete env[name];
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/start.ts')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  await new Promise<void>((ready, fail) => {
    const timer = setInterval(() => {
      if (output.includes('ready; Ctrl-C stops everything')) {
        clearInterval(timer);
        ready();
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        fail(new Error(`the platform exited early:\n${output}`));
      }
    }, 100);
  });
  const secret = /secret \(shown once, store it now\): (asec_\S+)/.exec(output)?.[1];
  const channelId = /channel (chn_[^,\s]+)/.exec(output)?.[1];
  if (!secret || !channelId) throw new Error(`no bootstrap key or channel in the start output:\n${output}`);
  return { child, baseUrl: `http://127.0.0.1:${port}`, secret, channelId, exited, output: () => output };
}

async function runSchemathesis(executable: string, platform: Platform, fixtures: Fixtures, extra: string[]): Promise<number> {
  const args = [
    '--config-file',
    join(__dirname, 'schemathesis.toml'),
    'run',
    `${platform.baseUrl}/openapi.json`,
    '--url',
    platform.baseUrl,
    '--header',
    `Authorization: Bearer ${platform.secret}`,
    '--phases',
    'examples,coverage,fuzzing',
    '--checks',
    'all',
    ...(EXCLUDED_CHECKS.length ? ['--exclude-checks', EXCLUDED_CHECKS.join(',')] : []),
    '--max-examples',
    String(MAX_EXAMPLES),
    '--seed',
    process.env.SCHEMATHESIS_SEED ?? String(Date.now() % 1_000_000),
    '--workers',
    '2',
    '--request-timeout',
    String(REQUEST_TIMEOUT_S),
    '--no-color',
    ...extra,
  ];
  const env = { ...process.env, PYTHONPATH: __dirname, SCHEMATHESIS_HOOKS: 'contract_hooks', SCHEMATHESIS_FIXTURES: JSON.stringify(fixtures) };
  const child = spawn(executable, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const code = await new Promise<number>((done) => child.on('exit', (exitCode) => done(exitCode ?? 1)));
  await mkdir(ARTIFACTS, { recursive: true });
  await writeFile(join(ARTIFACTS, 'output.txt'), output);
  const summary = schemathesisSummary(output, code);
  await writeFile(join(ARTIFACTS, 'summary.json'), JSON.stringify(summary, null, 2));
  // schemathesis ends with a pytest-style line ("== 2 warnings in 101.99s ==") that reads as "no
  // test ran" to anything scanning for test results; a failure shows everything, a pass its
  // summary and the counts.
  console.log(code === 0 ? summarySection(output) : output);
  console.log(
    `[schemathesis] ${code === 0 ? 'passed' : `FAILED (exit ${code})`}: ${summary.generated} cases generated, ${summary.passed} passed, ` +
      `${summary.failed} failed, ${summary.skipped} skipped; ${summary.operationsTested} operations tested; full output in ${join('test-artifacts/schemathesis', 'output.txt')}`,
  );
  return code;
}

/** The platform's warnings and errors of the run (slow requests, failed activities), which its log keeps but CI shows only from here. */
function reportPlatformTrouble(output: string): void {
  const lines = output.split('\n').filter((line) => /slow request|\bWARN\b|\bERROR\b/.test(line) && !/heartbeat details may be lost/.test(line));
  if (lines.length === 0) return;
  console.log(`[schemathesis] the platform logged ${lines.length} warning or error lines during the run; the first 40:`);
  for (const line of lines.slice(0, 40)) console.log(`  ${line.slice(0, 400)}`);
}

async function main(): Promise<void> {
  const executable = ensureSchemathesis();
  const dataDir = await mkdtemp(join(tmpdir(), 'billing-schemathesis-'));
  let platform: Platform | undefined;
  try {
    console.log('[schemathesis] starting the platform');
    platform = await startPlatform(dataDir);
    const fixtures = await createFixtures(platform.baseUrl, platform.secret, platform.channelId);
    console.log(`[schemathesis] API at ${platform.baseUrl}, ${MAX_EXAMPLES} examples per operation, fixtures created`);
    process.exitCode = await runSchemathesis(executable, platform, fixtures, process.argv.slice(2));
  } finally {
    if (platform) {
      platform.child.kill('SIGINT');
      await platform.exited;
      await mkdir(ARTIFACTS, { recursive: true });
      await writeFile(join(ARTIFACTS, 'platform.txt'), platform.output());
      reportPlatformTrouble(platform.output());
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error('[schemathesis]', error);
  process.exitCode = 1;
});
