import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../scripts/net/free-port';

/**
 * `npm start` for real, as a newcomer runs it: embedded PostgreSQL, the Temporal dev server
 * with its UI, the worker and the API; the first start bootstraps an account; Ctrl-C stops
 * everything; a second start finds the same data.
 */
const ROOT = resolve(__dirname, '../..');
jest.setTimeout(300_000);

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts not yet stopped: a failed assertion leaves one running, and jest would wait on it for good. */
const running = new Set<ChildProcess>();

function start(env: NodeJS.ProcessEnv): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/start.ts')], { cwd: ROOT, env: { ...process.env, ...env } });
  running.add(child);
  child.on('exit', () => running.delete(child));
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return new Promise((ready, fail) => {
    const timer = setInterval(() => {
      if (output.includes('ready; Ctrl-C stops everything')) {
        clearInterval(timer);
        ready({ child, output: () => output, exited });
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        fail(new Error(`npm start exited early:\n${output}`));
      }
    }, 100);
  });
}

const processesUsing = (dataDir: string) =>
  spawnSync('pgrep', ['-f', dataDir], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean);

describe('npm start', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'billing-start-'));
    env = {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      POSTGRES_PORT: String(await freePort()),
      TEMPORAL_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      METRICS_PORT: String(await freePort()),
      DATABASE_URL: '',
      TEMPORAL_ADDRESS: '',
    };
    delete env.DATABASE_URL;
    delete env.TEMPORAL_ADDRESS;
  });

  afterAll(async () => {
    for (const child of running) {
      // Ctrl-C, as a test that got this far would have sent; a start that ignores it is killed.
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGINT');
      const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(kill);
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('brings the platform up, bootstraps once, stops cleanly on Ctrl-C and keeps its data', async () => {
    const first = await start(env);
    const out = first.output();
    const secret = /secret \(shown once, store it now\): (asec_\S+)/.exec(out)?.[1];
    const keyId = / key (akey_\S+)/.exec(out)?.[1];
    expect(secret).toBeDefined();
    expect(out).toContain(`http://localhost:${env.PORT}/docs`);
    expect(out).toContain(`http://127.0.0.1:${env.TEMPORAL_UI_PORT}`);

    const api = `http://127.0.0.1:${env.PORT}`;
    const call = (path: string, body: unknown, bearer = secret) =>
      fetch(`${api}${path}`, { method: 'POST', headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const list = await call('/v2/api-keys/list', {});
    expect(list.status).toBe(200);
    expect(((await list.json()) as any).items.map((k: { id: string }) => k.id)).toEqual([keyId]);
    expect((await fetch(`${api}/docs`)).status).toBe(200);
    // The process's own metrics, which only the entry point sets up (services/metrics/process-metrics.ts),
    // on the operator's port, never on the API's.
    expect(out).toContain(`http://127.0.0.1:${env.METRICS_PORT}/metrics`);
    expect(await (await fetch(`http://127.0.0.1:${env.METRICS_PORT}/metrics`)).text()).toMatch(/^process_resident_memory_bytes [1-9]/m);
    expect((await fetch(`${api}/metrics`)).status).toBe(404);
    expect(out).toContain(`http://localhost:${env.PORT}/dashboard/`);
    expect((await fetch(`${api}/dashboard/`)).headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect((await fetch(`http://127.0.0.1:${env.TEMPORAL_UI_PORT}/`)).status).toBe(200);
    // The dashboard's first sign-in link (docs/dashboard.md) sets the first admin's password, once.
    const link = /first dashboard sign-in .*\n\[start\]\s+(\S+)/.exec(out)?.[1];
    expect(link).toMatch(new RegExp(`^http://localhost:${env.PORT}/dashboard/accept-invitation\\?token=`));
    const accept = () =>
      fetch(`${api}/dashboard/api/session/accept-invitation`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: new URL(link!).searchParams.get('token'), password: 'first admin password' }),
      });
    const accepted = await accept();
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('set-cookie')).toMatch(/^bp_session=/);
    expect((await accept()).status).toBe(422);
    // Local development: webhook receivers on this machine are accepted (WEBHOOK_ALLOW_LOOPBACK).
    expect((await call('/v2/webhooks/create', { url: 'http://127.0.0.1:4000/' })).status).toBe(200);

    const rotated = await call('/v2/api-keys/rotate', { id: keyId, rotation_period: 3600 });
    expect(rotated.status).toBe(200);
    const newSecret = ((await rotated.json()) as any).rotate_secret as string;

    // The rotation's timer lives in the dev server, findable by the key's id.
    const connection = await Connection.connect({ address: `127.0.0.1:${env.TEMPORAL_PORT}` });
    const client = new Client({ connection });
    const workflows: string[] = [];
    for await (const execution of client.workflow.list({ query: `WorkflowId STARTS_WITH "${keyId}/rotation/"` })) {
      workflows.push(execution.workflowId);
    }
    const purge = await client.workflow.getHandle('maintenance/idempotency-purge').describe();
    const sweep = await client.workflow.getHandle('maintenance/payment-sweep').describe();
    const retention = await client.workflow.getHandle('maintenance/retention').describe();
    const rollup = await client.workflow.getHandle('maintenance/metrics-rollup').describe();
    await connection.close();
    expect(purge.status.name).toBe('RUNNING');
    expect(sweep.status.name).toBe('RUNNING');
    expect(retention.status.name).toBe('RUNNING');
    expect(rollup.status.name).toBe('RUNNING');
    expect(workflows).toHaveLength(1);
    expect(workflows[0]).toMatch(new RegExp(`^${keyId}/rotation/`));

    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('[start] stopped');
    expect(processesUsing(dataDir)).toEqual([]);

    const second = await start(env);
    expect(second.output()).not.toContain('first start');
    expect(second.output()).not.toContain('first dashboard sign-in');
    expect((await call('/v2/api-keys/get', { id: keyId }, newSecret)).status).toBe(200);
    expect((await call('/v2/api-keys/get', { id: keyId }, secret)).status).toBe(200);
    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(processesUsing(dataDir)).toEqual([]);
  });
});
