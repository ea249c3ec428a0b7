import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { Database } from '../../prisma/client';
import type { AttemptDeliveryInput } from '../../services/webhooks/delivery-attempt';
import { insertEndpoint } from '../../services/webhooks/repository';
import type { SenderResult } from '../../services/webhooks/sender-record';
import { createTestDatabase, type TestDatabase } from '../support/database';

/**
 * An ACTIVE endpoint with one PENDING delivery, as the webhook sender (a lease) or a retry
 * workflow (a claim at `nextAttemptAt`) holds it, for tests of the two recorders of attempts.
 */
export interface RecorderFixture {
  endpointId: string;
  eventId: string;
  deliveryId: string;
  leaseUntil: Date;
  nextAttemptAt: Date;
}

let seq = 0;

/** Needs the account `accountId` to exist; the endpoint's URL is `${url}/<n>`. */
export async function pendingDelivery(
  db: Database,
  options: { accountId: string; url: string; handler: 'SENDER' | 'RETRY'; failingSince?: Date },
): Promise<RecorderFixture> {
  seq += 1;
  const now = new Date();
  const { row: endpoint } = await db.$transaction((tx) =>
    insertEndpoint(tx, { accountId: options.accountId, channelId: null, url: `${options.url}/${seq}`, eventTypes: ['CUSTOMER_CREATED'], now }),
  );
  await db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { status: 'ACTIVE', failingSince: options.failingSince ?? null } });
  const eventId = `evt_rec${process.pid}x${seq}`;
  const deliveryId = `whdl_rec${process.pid}x${seq}`;
  const leaseUntil = new Date(now.getTime() + 60_000);
  const nextAttemptAt = new Date(now.getTime() - 1_000);
  await db.$executeRaw`
    INSERT INTO outbox_events (id, account_id, event_type, occurred_at, data, dispatched_at)
    VALUES (${eventId}, ${options.accountId}, 'CUSTOMER_CREATED', ${now}, '{}', ${now})`;
  await db.$executeRaw`
    INSERT INTO webhook_deliveries (id, account_id, endpoint_id, event_id, event_type, status, next_attempt_at, lease_until, created_at, updated_at, handler)
    VALUES (${deliveryId}, ${options.accountId}, ${endpoint.id}, ${eventId}, 'CUSTOMER_CREATED', 'PENDING', ${nextAttemptAt},
            ${options.handler === 'SENDER' ? leaseUntil : null}, ${now}, ${now}, ${options.handler})`;
  return { endpointId: endpoint.id, eventId, deliveryId, leaseUntil, nextAttemptAt };
}

/** The sender's result for one attempt of `f`, answered with `status` at `at`. */
export function senderResult(f: RecorderFixture, status: number, at = new Date()): SenderResult {
  return {
    deliveryId: f.deliveryId,
    endpointId: f.endpointId,
    eventId: f.eventId,
    attempt: 1,
    leaseUntil: f.leaseUntil,
    at,
    answer: { responseStatus: status, error: null, durationMs: 5 },
  };
}

/** A retry workflow's second attempt at `f`, made now, on the claim the fixture gave it. */
export function retryAttempt(f: RecorderFixture): AttemptDeliveryInput {
  return {
    eventId: f.eventId,
    endpointId: f.endpointId,
    attempt: 2,
    claim: f.nextAttemptAt.toISOString(),
    at: new Date().toISOString(),
    retryInMs: 60_000,
    createIfMissing: false,
  };
}

export interface RecorderWorld {
  /** The file's database; filled once its `beforeAll` has run. */
  readonly t: TestDatabase;
  fixture(options: { handler: 'SENDER' | 'RETRY'; failingSince?: Date }): Promise<RecorderFixture>;
}

/**
 * A database of the test file's own with one account, and a loopback receiver answering every
 * request with `receiverStatus` (a retry's attempt really POSTs), started in a `beforeAll` and
 * stopped in an `afterAll`, both registered here.
 */
export function useRecorderWorld(accountId: string, receiverStatus: number): RecorderWorld {
  let t: TestDatabase | undefined;
  let receiver: Server | undefined;
  let url = '';
  beforeAll(async () => {
    process.env.SECRETS_KEY ??= randomBytes(32).toString('hex');
    process.env.WEBHOOK_ALLOW_LOOPBACK = 'true';
    t = await createTestDatabase();
    await t.db.$executeRaw`INSERT INTO accounts (id, name, updated_at) VALUES (${accountId}, ${accountId}, now())`;
    receiver = createServer((_req, res) => res.writeHead(receiverStatus).end());
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    if (receiver) await new Promise((resolve) => receiver!.close(resolve));
    await t?.drop();
  });
  return {
    get t() {
      return t!;
    },
    fixture: (options) => pendingDelivery(t!.db, { accountId, url, ...options }),
  };
}
