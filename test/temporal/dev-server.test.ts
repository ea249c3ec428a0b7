import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { startTemporalDevServer, type DevServer } from '../../scripts/temporal/cli';
import { greeter } from './fixtures/greeter.workflow';
import { freePort } from '../../scripts/net/free-port';
import { isListening } from '../../scripts/net/is-listening';

async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await fn();
  console.info(`${label} in ${Math.round(performance.now() - started)} ms`);
  return result;
}

async function withClient<T>(server: DevServer, fn: (client: Client) => Promise<T>): Promise<T> {
  const connection = await Connection.connect({ address: server.address });
  try {
    return await fn(new Client({ connection }));
  } finally {
    await connection.close();
  }
}


describe('temporal dev server', () => {
  let dataDir: string;
  let server: DevServer | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'temporal-dev-server-'));
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs workflows, serves the UI and keeps history across restarts', async () => {
    // Free ports rather than 7233/8233 so the test does not collide with a server started by `npm start`.
    const opts = { dataDir, port: await freePort(), uiPort: await freePort() };
    server = await timed('dev server ready (new database)', () => startTemporalDevServer(opts));

    const workflowId = `greeter-${randomUUID()}`;
    const taskQueue = `greeter-${randomUUID()}`;
    const workerConnection = await NativeConnection.connect({ address: server.address });
    try {
      const worker = await Worker.create({
        connection: workerConnection,
        taskQueue,
        workflowsPath: require.resolve('./fixtures/greeter.workflow'),
      });
      const greeting = await worker.runUntil(
        withClient(server, (client) => client.workflow.execute(greeter, { taskQueue, workflowId, args: ['dev'] })),
      );
      expect(greeting).toBe('Hello, dev!');
    } finally {
      await workerConnection.close();
    }

    const ui = await fetch(server.uiUrl);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('<html');

    await timed('dev server stopped', () => server!.stop());
    expect(await isListening(opts.port)).toBe(false);
    expect(await isListening(opts.uiPort)).toBe(false);

    server = await timed('dev server ready (existing database)', () => startTemporalDevServer(opts));
    const listed = await withClient(server, async (client) => {
      const ids: string[] = [];
      for await (const execution of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
        ids.push(`${execution.workflowId}:${execution.status.name}`);
      }
      return ids;
    });
    expect(listed).toEqual([`${workflowId}:COMPLETED`]);
  }, 180_000);
});
