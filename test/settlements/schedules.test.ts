import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection, ScheduleOverlapPolicy } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { MONTHLY_STATEMENT_SCHEDULE_ID, SETTLEMENT_SCHEDULE_ID } from '../../domain/workflow-ids';
import { startTemporalDevServer, type DevServer } from '../../scripts/temporal/cli';
import { createAccount, createChannel } from '../../scripts/operator/accounts';
import { assignLegalEntity, createLegalEntity } from '../../scripts/operator/legal-entities';
import { createWorker } from '../../worker/create-worker';
import { ensureSettlementSchedules } from '../../services/workflows/settlement-schedules';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { bookedPayment } from './fixtures';
import { freePort } from '../../scripts/net/free-port';

/**
 * The time-skipping test server has no Schedules (temporalio/sdk-java#1954), so this file runs
 * them on the dev server `npm start` uses, with a worker on a database of its own.
 */

let dataDir: string;
let server: DevServer;
let connection: Connection;
let workerConnection: NativeConnection;
let client: Client;
let database: TestDatabase;
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'settlement-schedules-'));
  // The worker's activities write settlement files there, never into the project's .data.
  process.env.STORAGE_DIR = path.join(dataDir, 'files');
  server = await startTemporalDevServer({ dataDir, port: await freePort(), uiPort: await freePort() });
  connection = await Connection.connect({ address: server.address });
  client = new Client({ connection });
  database = await createTestDatabase();
  workerConnection = await NativeConnection.connect({ address: server.address });
  worker = await createWorker({ connection: workerConnection, db: database.db, workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! } });
  running = worker.run();
}, 120_000);

afterAll(async () => {
  if (worker) {
    worker.shutdown();
    await running;
  }
  await workerConnection?.close();
  await connection?.close();
  await server?.stop();
  await database?.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('settlement and monthly statement Schedules', () => {
  it('are created once, whatever the number of worker starts, and an operator’s pause survives', async () => {
    await ensureSettlementSchedules(client);
    await client.schedule.getHandle(SETTLEMENT_SCHEDULE_ID).pause('operator: bank holiday');
    await ensureSettlementSchedules(client);

    const settlement = await client.schedule.getHandle(SETTLEMENT_SCHEDULE_ID).describe();
    expect(settlement.state.paused).toBe(true);
    expect(settlement.spec.calendars).toEqual([expect.objectContaining({ hour: [{ start: 2, end: 2, step: 1 }], minute: [{ start: 0, end: 0, step: 1 }] })]);
    expect(settlement.action).toMatchObject({ type: 'startWorkflow', workflowType: 'settlementWorkflow', taskQueue: 'billing', args: [{}] });
    expect(settlement.policies.overlap).toBe(ScheduleOverlapPolicy.BUFFER_ALL);

    const statements = await client.schedule.getHandle(MONTHLY_STATEMENT_SCHEDULE_ID).describe();
    expect(statements.state.paused).toBe(false);
    expect(statements.spec.calendars).toEqual([expect.objectContaining({ dayOfMonth: [{ start: 1, end: 1, step: 1 }], hour: [{ start: 4, end: 4, step: 1 }] })]);
    expect(statements.action).toMatchObject({ type: 'startWorkflow', workflowType: 'monthlyStatementWorkflow' });
    const next = statements.info.nextActionTimes[0]!;
    expect([next.getUTCDate(), next.getUTCHours(), next.getUTCMinutes()]).toEqual([1, 4, 0]);

    await client.schedule.getHandle(SETTLEMENT_SCHEDULE_ID).unpause();
  });

  it('a run settles the day before the time it was due, even when taken late (backfill)', async () => {
    const { db } = database;
    const account = await createAccount(db, 'Scheduled');
    const channel = await createChannel(db, account.id, 'Shop');
    const entity = await createLegalEntity(db, { accountId: account.id, name: 'Scheduled GmbH', country: 'DEU' });
    await assignLegalEntity(db, channel.id, entity.id);
    // A payment the sandbox charged on 2026-03-10, as the charge path leaves it.
    await bookedPayment(db, { accountId: account.id, channelId: channel.id, provider: 'sandbox-beta', amount: 8_000, fee: 225, currency: 'EUR', at: '2026-03-10T15:00:00.000Z' });

    const handle = client.schedule.getHandle(SETTLEMENT_SCHEDULE_ID);
    await handle.backfill({ start: new Date('2026-03-11T01:59:00Z'), end: new Date('2026-03-11T02:01:00Z'), overlap: ScheduleOverlapPolicy.ALLOW_ALL });
    const action = await waitFor(async () => (await handle.describe()).info.recentActions.find((a) => a.scheduledAt.toISOString() === '2026-03-11T02:00:00.000Z'));
    const result = await client.workflow.getHandle(action.action.workflow.workflowId).result();
    expect(result).toEqual({ day: '2026-03-10', settlements: 1, filesSucceeded: 2, filesFailed: 0, unassignedLines: 0 });
    const settlement = await db.settlement.findFirstOrThrow({ where: { legalEntityId: entity.id }, include: { files: true } });
    expect(settlement).toMatchObject({ provider: 'sandbox-beta', currency: 'EUR', amount: BigInt(8_000 - 225), settlementDate: new Date('2026-03-11T00:00:00Z') });
    expect(settlement.files.map((f) => f.status)).toEqual(['SUCCEEDED', 'SUCCEEDED']);
  }, 60_000);
});

async function waitFor<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('Timed out waiting for the scheduled run.');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
