import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import * as workflows from '../../workflows';
import { prebuiltWorkflowBundle } from '../../worker/workflow-bundle';
import { freePort } from '../../scripts/net/free-port';
import { createTestDatabase, type TestDatabase } from '../support/database';

/**
 * `npm run build` (scripts/build.sh, docs/deployment.md, "Build"): the compiled code runs one
 * folder deeper than its sources, yet reads what lies beside them at the checkout's root (the
 * dashboard and portal builds, the migrations it ships), and the compiled worker takes the
 * prebuilt workflow bundle. Built into a folder of .data/ so that dist/ is left alone.
 */
const ROOT = path.resolve(__dirname, '..', '..');
let out: string;

beforeAll(async () => {
  await mkdir(path.join(ROOT, '.data'), { recursive: true });
  out = await mkdtemp(path.join(ROOT, '.data', 'build-test-'));
  await promisify(execFile)('bash', ['scripts/build.sh', path.relative(ROOT, out)], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
}, 600_000);

afterAll(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

async function answered(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`the compiled API exited with ${child.exitCode}`);
    const ok = await fetch(url).then((response) => response.ok, () => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

describe('the build', () => {
  let database: TestDatabase;
  let api: ChildProcess | undefined;

  afterAll(async () => {
    if (api && api.exitCode === null) {
      const exited = new Promise((done) => api!.once('exit', done));
      api.kill('SIGTERM');
      await exited;
    }
    await database?.drop();
  });

  it('the compiled API finds the migrations it ships and serves the dashboard and the portal', async () => {
    database = await createTestDatabase();
    const port = await freePort();
    api = spawn(process.execPath, [path.join(out, 'api', 'main.js')], {
      // Not the checkout: nothing may depend on where it is started from.
      cwd: out,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        PATH: process.env.PATH!,
        HOME: process.env.HOME!,
        DATABASE_URL: database.url,
        PORT: String(port),
        LOG_LEVEL: 'silent',
        // Nothing answers there: readiness says so for Temporal alone.
        TEMPORAL_ADDRESS: '127.0.0.1:1',
        SECRETS_KEY: randomBytes(32).toString('hex'),
        URL_SIGNING_KEY: randomBytes(32).toString('hex'),
      },
    });
    const base = `http://127.0.0.1:${port}`;
    await answered(`${base}/health`, api);

    const readiness = (await (await fetch(`${base}/health/ready`)).json()) as { checks: Record<string, { ok: boolean; problem?: string }> };
    expect(readiness.checks.database).toMatchObject({ ok: true });
    expect(readiness.checks.migrations).toMatchObject({ ok: true });

    for (const app of ['dashboard', 'portal']) {
      const page = await fetch(`${base}/${app}/`);
      const index = await readFile(path.join(ROOT, app, 'dist', 'index.html'), 'utf8');
      const script = /src="([^"]+\.js)"/.exec(index)?.[1];
      expect({ app, status: page.status, type: page.headers.get('content-type') }).toEqual({ app, status: 200, type: expect.stringContaining('text/html') });
      expect({ app, script: script && (await fetch(`${base}${script}`)).status }).toEqual({ app, script: 200 });
    }
  }, 120_000);

  it('the compiled worker loads the prebuilt bundle of every workflow; a worker run from the sources bundles its own', async () => {
    const codePath = path.join(out, 'workflow-bundle.js');
    expect(prebuiltWorkflowBundle(path.join(out, 'worker'))).toEqual({ codePath });
    expect(prebuiltWorkflowBundle(path.join(ROOT, 'worker'))).toBeUndefined();
    const code = await readFile(codePath, 'utf8');
    for (const name of Object.keys(workflows)) expect({ name, bundled: code.includes(`function ${name}(`) }).toEqual({ name, bundled: true });
  });
});
