import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '../../scripts/net/free-port';
import { REACHABLE_BASE } from '../../scripts/postgres/reachable-paths';

/**
 * The newcomer's first steps as root: `git clone … ~/billing && cd ~/billing && npm start`,
 * in a home only root may enter (0700). PostgreSQL refuses root and runs as the `postgres`
 * account, which can reach neither the binaries in node_modules nor the data in `.data`.
 * The checkout here is a hard-linked copy of this one inside a fresh 0700 directory.
 */
const ROOT = resolve(__dirname, '../..');
/** Run by anyone else, the server runs as them and the data stay in the checkout. */
const asRoot = process.getuid?.() === 0;
jest.setTimeout(600_000);

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function run(cwd: string, args: string[], env: NodeJS.ProcessEnv): Run {
  const child = spawn(process.execPath, args, { cwd, env });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

async function started(started: Run): Promise<Run> {
  while (!started.output().includes('ready; Ctrl-C stops everything')) {
    if (started.child.exitCode !== null) throw new Error(`npm start exited early:\n${started.output()}`);
    await new Promise((done) => setTimeout(done, 100));
  }
  return started;
}

const processesUsing = (path: string) => spawnSync('pgrep', ['-f', path], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);

describe('a checkout in a home only its owner may enter', () => {
  let home: string;
  let clone: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'billing-home-'));
    expect((await stat(home)).mode & 0o777).toBe(0o700);
    clone = join(home, 'billing');
    const entries = readdirSync(ROOT).filter((name) => !['.data', '.git'].includes(name));
    expect(spawnSync('mkdir', [clone]).status).toBe(0);
    const copy = spawnSync('cp', ['-al', ...entries.map((name) => join(ROOT, name)), clone], { encoding: 'utf8' });
    expect(copy.stderr).toBe('');
    env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('TEST_') && !name.startsWith('JEST_')));
    for (const name of ['DATABASE_URL', 'TEMPORAL_ADDRESS', 'DATA_DIR', 'SECRETS_KEY', 'URL_SIGNING_KEY', 'PUBLIC_URL', 'STORAGE_DIR']) delete env[name];
    for (const name of ['PORT', 'POSTGRES_PORT', 'TEMPORAL_PORT', 'TEMPORAL_UI_PORT', 'METRICS_PORT']) env[name] = String(await freePort());
  });

  afterAll(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(join(REACHABLE_BASE, `data-${createHash('sha256').update(join(clone, '.data', 'postgres')).digest('hex').slice(0, 16)}`), {
      recursive: true,
      force: true,
    });
  });

  it('npm start works, says where the data are, and finds them again on the next start', async () => {
    const first = await started(run(clone, ['--import', 'tsx', 'scripts/start.ts'], env));
    const dataDir = /PostgreSQL on \S+ \(data in (\S+)\)/.exec(first.output())?.[1];
    if (asRoot) {
      expect(dataDir?.startsWith(`${REACHABLE_BASE}/data-`)).toBe(true);
      expect(first.output()).toContain(`not in ${join(clone, '.data', 'postgres')}: the server runs as the OS user \`postgres\``);
    } else {
      expect(dataDir).toBe(join(clone, '.data', 'postgres'));
    }
    const secret = /secret \(shown once, store it now\): (asec_\S+)/.exec(first.output())?.[1];
    const call = () =>
      fetch(`http://127.0.0.1:${env.PORT}/v2/api-keys/list`, { method: 'POST', headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }, body: '{}' });
    expect((await call()).status).toBe(200);

    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(processesUsing(dataDir!)).toEqual([]);

    const second = await started(run(clone, ['--import', 'tsx', 'scripts/start.ts'], env));
    expect(second.output()).toContain(`(data in ${dataDir})`);
    expect(second.output()).not.toContain('first start');
    expect((await call()).status).toBe(200);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(processesUsing(dataDir!)).toEqual([]);
  });

  it('npm test works: jest’s global setup starts its PostgreSQL from the checkout', async () => {
    const jest = run(clone, [join(clone, 'node_modules', 'jest', 'bin', 'jest.js'), 'test/domain/secret-box.test.ts'], env);
    const code = await jest.exited;
    expect(jest.output()).toMatch(/Tests:\s+\d+ passed, \d+ total/);
    expect(code).toBe(0);
  });
});
