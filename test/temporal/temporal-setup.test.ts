import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { startTemporalDevServer, type DevServer } from '../../scripts/temporal/cli';
import { freePort } from '../../scripts/net/free-port';
import { setUpTemporal } from '../../scripts/operator/temporal-setup';

const ROOT = path.resolve(__dirname, '../..');
const exec = promisify(execFile);

/** `npm run operator -- temporal-setup` as an operator runs it: a process of its own, Temporal's settings from the environment. */
async function operatorTemporalSetup(address: string, namespace: string): Promise<{ namespace: string; namespaceCreated: boolean }> {
  const { stdout } = await exec(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/operator.ts'), 'temporal-setup', '--retention-days', '3'], {
    cwd: ROOT,
    env: { ...process.env, TEMPORAL_ADDRESS: address, TEMPORAL_NAMESPACE: namespace },
  });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

describe('operator temporal-setup', () => {
  let dataDir: string;
  let server: DevServer;
  let connection: Connection;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'temporal-setup-'));
    server = await startTemporalDevServer({ dataDir, port: await freePort(), uiPort: await freePort() });
    connection = await Connection.connect({ address: server.address });
  });

  afterAll(async () => {
    await connection?.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates a missing namespace with the retention asked for, and leaves it alone on the next run', async () => {
    const first = await operatorTemporalSetup(server.address, 'billing-ops');
    expect(first).toMatchObject({ namespace: 'billing-ops', namespaceCreated: true });
    const described = await connection.workflowService.describeNamespace({ namespace: 'billing-ops' });
    expect(Number(described.config?.workflowExecutionRetentionTtl?.seconds)).toBe(3 * 24 * 3600);
    // Served straight away: a worker started right after the command finds it.
    await connection.workflowService.countWorkflowExecutions({ namespace: 'billing-ops' });

    const second = await operatorTemporalSetup(server.address, 'billing-ops');
    expect(second).toMatchObject({ namespace: 'billing-ops', namespaceCreated: false });
  });

  it('registers missing search attributes once and refuses one that exists with another type', async () => {
    const first = await setUpTemporal(connection, 'default', { searchAttributes: { BillingSetupProbe: 'KEYWORD' } });
    expect(first).toMatchObject({ namespaceCreated: false, searchAttributesAdded: ['BillingSetupProbe'], searchAttributesPresent: [] });
    const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace: 'default' });
    expect(Object.keys(customAttributes ?? {})).toContain('BillingSetupProbe');

    const second = await setUpTemporal(connection, 'default', { searchAttributes: { BillingSetupProbe: 'KEYWORD' } });
    expect(second).toMatchObject({ searchAttributesAdded: [], searchAttributesPresent: ['BillingSetupProbe'] });

    await expect(setUpTemporal(connection, 'default', { searchAttributes: { BillingSetupProbe: 'INT' } })).rejects.toThrow(/BillingSetupProbe exists in default with another type/);
  });
});
