import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createDatabase } from '../../../prisma/client';
import { insertEndpoint } from '../../../services/webhooks/repository';
import { ownChild } from '../processes';
import { perOperation, type StatementCounter } from '../statement-counts';
import { backlogPhase, receiverKit } from '../webhooks';

/**
 * bench:webhooks' backlog (phase 3) on a given database, as `accountId`: an endpoint of the
 * account on a receiver in this process, `events` events committed to `channelId`, then a worker
 * (webhook-worker.ts: no housekeeping workflows, which would purge a grown database's seeded
 * year) started to deliver them. Deliveries per second, and the shared buffers per delivery of
 * the commits and the worker's statements together (pg_stat_statements).
 */
export async function webhookBacklog(
  root: string,
  databaseUrl: string,
  access: { accountId: string; channelId: string },
  temporalAddress: string,
  counter: StatementCounter,
  events: number,
): Promise<{ perSecond: number; blocks: number }> {
  // The endpoint's secret is sealed here and opened by the worker: both need the same key.
  process.env.SECRETS_KEY ??= randomBytes(32).toString('hex');
  const receivedAt = new Map<string, number>();
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const db = createDatabase(databaseUrl, 2);
  let worker: ReturnType<typeof spawn> | undefined;
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
    const endpoint = await db.$transaction((tx) =>
      insertEndpoint(tx, { accountId: access.accountId, channelId: null, url, eventTypes: ['CUSTOMER_CREATED'], now: new Date() }),
    );
    await db.webhookEndpoint.update({ where: { id: endpoint.row.id }, data: { status: 'ACTIVE' } });
    const kit = receiverKit(endpoint.secret, receivedAt);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => res.writeHead((await kit.handle(Buffer.concat(chunks), req.headers)).status).end());
    });
    // The other figures' requests (invoices finalized and paid) and the seed's tail left events no worker has
    // dispatched: the seeded endpoints would take some, and without secrets hold them until their leases expire.
    // The worker is to have the backlog alone to deliver.
    await db.$executeRaw`UPDATE outbox_events SET dispatched_at = now() WHERE dispatched_at IS NULL`;
    await db.$disconnect();
    await counter.waitForOtherSessionsToEnd();
    const before = await counter.snapshot();
    const startWorker = () =>
      (worker = ownChild(
        spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts/bench/webhook-worker.ts')], {
          cwd: root,
          stdio: 'inherit',
          // The receiver is on 127.0.0.1.
          env: { ...process.env, DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: temporalAddress, WEBHOOK_ALLOW_LOOPBACK: 'true' },
        }),
      ));
    const backlog = await backlogPhase({ db, ...access, events, receivedAt, startWorker });
    await db.$disconnect();
    await stop(worker);
    await counter.waitForOtherSessionsToEnd();
    return { perSecond: backlog.perSecond, blocks: perOperation(before, await counter.snapshot(), events).blocks };
  } finally {
    await stop(worker);
    await db.$disconnect();
    server.closeAllConnections();
    server.close();
  }
}

async function stop(worker: ReturnType<typeof spawn> | undefined): Promise<void> {
  if (!worker || worker.exitCode !== null || worker.signalCode !== null) return;
  const exited = new Promise((done) => worker.once('exit', done));
  worker.kill('SIGTERM');
  await exited;
}
