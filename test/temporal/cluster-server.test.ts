import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { Client as PgClient } from 'pg';
import { startClusterServer } from '../../scripts/temporal/cluster-server';
import { greeter } from './fixtures/greeter.workflow';

/** The PostgreSQL jest's global setup started (test/support/database.ts). */
function adminUrl(): URL {
  return new URL(process.env.TEST_ADMIN_DATABASE_URL!);
}

function urlFor(database: string): string {
  const url = adminUrl();
  url.pathname = `/${database}`;
  return url.toString();
}

async function schemaVersion(database: string): Promise<string> {
  const client = new PgClient({ connectionString: urlFor(database) });
  await client.connect();
  try {
    return (await client.query<{ curr_version: string }>('SELECT curr_version FROM schema_version')).rows[0]!.curr_version;
  } finally {
    await client.end();
  }
}

describe('Temporal server on PostgreSQL', () => {
  const suffix = `${process.pid}_${Date.now()}`;
  const databases = { persistence: `temporal_${suffix}`, visibility: `temporal_visibility_${suffix}` };
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'cluster-server-'));
  });

  afterAll(async () => {
    const admin = new PgClient({ connectionString: adminUrl().toString() });
    await admin.connect();
    for (const database of Object.values(databases)) await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    await admin.end();
    await rm(dir, { recursive: true, force: true });
  });

  it('applies the schema, serves the namespace and the Web UI, runs a workflow, and starts again on the same databases', async () => {
    const url = adminUrl();
    const target = { host: url.hostname, port: Number(url.port), user: decodeURIComponent(url.username), password: decodeURIComponent(url.password), adminUrl: url.toString() };
    const first = await startClusterServer({ postgres: target, databases, dataDir: path.join(dir, 'temporal'), namespace: 'billing-test' });
    try {
      // Persistence and visibility are in PostgreSQL, at the versions of the server's own schema files.
      expect(await schemaVersion(databases.persistence)).toMatch(/^1\.\d+$/);
      expect(await schemaVersion(databases.visibility)).toMatch(/^1\.\d+$/);
      expect(await (await fetch(first.uiUrl!)).text()).toContain('<html');

      const connection = await Connection.connect({ address: first.address });
      try {
        const workerConnection = await NativeConnection.connect({ address: first.address });
        const worker = await Worker.create({
          connection: workerConnection,
          namespace: 'billing-test',
          taskQueue: 'cluster-server-test',
          workflowsPath: require.resolve('./fixtures/greeter.workflow'),
        });
        const client = new Client({ connection, namespace: 'billing-test' });
        const result = await worker.runUntil(client.workflow.execute(greeter, { taskQueue: 'cluster-server-test', workflowId: 'greeter-on-postgres', args: ['PostgreSQL'] }));
        expect(result).toBe('Hello, PostgreSQL!');
        await workerConnection.close();
      } finally {
        await connection.close();
      }
    } finally {
      await first.stop();
    }

    // The workflow outlived the server: it is in PostgreSQL, not in the process.
    const second = await startClusterServer({ postgres: target, databases, dataDir: path.join(dir, 'temporal-again'), namespace: 'billing-test', ui: false });
    try {
      const connection = await Connection.connect({ address: second.address });
      try {
        const client = new Client({ connection, namespace: 'billing-test' });
        expect((await client.workflow.getHandle('greeter-on-postgres').describe()).status.name).toBe('COMPLETED');
      } finally {
        await connection.close();
      }
    } finally {
      await second.stop();
    }
  });
});
