import type { Database } from '../../prisma/client';

export const DAY = 24 * 60 * 60_000;

let sequence = 0;
const id = (prefix: string) => `${prefix}_ret${Date.now().toString(36)}${(sequence++).toString(36)}`;

/** An endpoint nothing dispatches to (INACTIVE): deliveries are written by hand. */
export async function inactiveEndpoint(db: Database, accountId: string): Promise<string> {
  const endpoint = await db.webhookEndpoint.create({
    data: { id: id('whep'), accountId, url: 'https://receiver.example.test/hook', status: 'INACTIVE', eventTypes: [], createdAt: new Date(), updatedAt: new Date() },
  });
  return endpoint.id;
}

export async function outboxEvent(db: Database, accountId: string, at: { createdAt: Date; dispatchedAt: Date | null }): Promise<string> {
  const event = await db.outboxEvent.create({
    data: { id: id('evt'), accountId, eventType: 'CUSTOMER_CREATED', occurredAt: at.createdAt, data: {}, createdAt: at.createdAt, dispatchedAt: at.dispatchedAt },
  });
  return event.id;
}

/** A delivery of `eventId` to `endpointId` with `attempts` attempts, last changed at `updatedAt`. */
export async function delivery(
  db: Database,
  accountId: string,
  endpointId: string,
  eventId: string,
  status: 'PENDING' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED',
  updatedAt: Date,
  attempts: number,
): Promise<string> {
  const row = await db.webhookDelivery.create({
    data: {
      id: id('whdl'),
      accountId,
      endpointId,
      eventId,
      eventType: 'CUSTOMER_CREATED',
      status,
      attemptCount: attempts,
      nextAttemptAt: status === 'PENDING' ? new Date(Date.now() + 60_000) : null,
      createdAt: updatedAt,
      updatedAt,
      attempts: {
        create: Array.from({ length: attempts }, (_, i) => ({
          id: id('what'),
          attempt: i + 1,
          requestedAt: updatedAt,
          responseStatus: 500,
          error: 'HTTP_500',
          durationMs: 5,
        })),
      },
    },
  });
  return row.id;
}

export async function auditRows(db: Database, accountId: string, count: number, createdAt: Date): Promise<void> {
  await db.dashboardAuditEntry.createMany({
    data: Array.from({ length: count }, () => ({ id: id('aud'), accountId, userId: 'usr_x', userEmail: 'x@example.test', action: 'users/invite', createdAt })),
  });
}

/** A portal link made at `createdAt`, opened at once and still in use at `lastSeenAt` when given. */
export async function portalSession(db: Database, accountId: string, createdAt: Date, lastSeenAt?: Date): Promise<string> {
  const row = await db.customerPortalSession.create({
    data: {
      id: id('cps'),
      accountId,
      channelId: 'chn_x',
      customerId: 'cust_x',
      linkHash: Buffer.from(id('link')),
      createdBy: 'akey_x',
      createdAt,
      linkExpiresAt: new Date(createdAt.getTime() + 10 * 60_000),
      openedAt: lastSeenAt ? createdAt : null,
      sessionHash: lastSeenAt ? Buffer.from(id('session')) : null,
      lastSeenAt: lastSeenAt ?? null,
    },
  });
  return row.id;
}

export async function stripeEvent(db: Database, accountId: string, receivedAt: Date, appliedAt: Date | null): Promise<string> {
  const eventId = id('evt_stripe');
  await db.stripeEvent.create({ data: { accountId, eventId, type: 'payment_intent.succeeded', payload: {}, receivedAt, appliedAt, outcome: appliedAt ? 'applied' : null } });
  return eventId;
}

export async function invitation(db: Database, accountId: string, expiresAt: Date): Promise<string> {
  const row = await db.dashboardInvitation.create({
    data: { id: id('inv'), accountId, email: `${id('e')}@example.test`, role: 'SUPPORT', tokenHash: Buffer.from(id('token')), createdAt: new Date(expiresAt.getTime() - 3 * DAY), expiresAt },
  });
  return row.id;
}

export async function rateLimitBucket(db: Database, updatedAtMs: number): Promise<string> {
  const bucket = id('akey');
  await db.rateLimitBucket.create({ data: { id: `${bucket} invoices:get`, tokens: 1, updatedAtMs, allowed: true } });
  return `${bucket} invoices:get`;
}
