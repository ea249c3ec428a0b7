import type { Database } from '../../prisma/client';
import { insertEndpoint } from '../../services/webhooks/repository';
import type { SenderResult } from '../../services/webhooks/sender-record';

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
