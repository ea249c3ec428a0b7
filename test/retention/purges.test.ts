import type { Database } from '../../prisma/client';
import { purgeExpiredIdempotencyRecords } from '../../services/idempotency/purge-expired-records';
import type { PurgeResult, RetentionDeps } from '../../services/retention/deps';
import { purgeDashboardAuditLog } from '../../services/retention/purge-audit-log';
import { purgeDashboardInvitations } from '../../services/retention/purge-dashboard-links';
import { purgeOutboxEvents } from '../../services/retention/purge-outbox-events';
import { purgeCustomerPortalSessions } from '../../services/retention/purge-portal-sessions';
import { purgeRateLimitBuckets } from '../../services/retention/purge-rate-limit-buckets';
import { purgeStripeEvents } from '../../services/retention/purge-stripe-events';
import { purgeWebhookDeliveries } from '../../services/retention/purge-webhook-deliveries';
import { purgeWebhookDeliveryAttempts } from '../../services/retention/purge-webhook-delivery-attempts';
import { retentionSettings } from '../../services/retention/settings';
import { usePlatform } from '../support/platform';
import { auditRows, DAY, delivery, inactiveEndpoint, invitation, outboxEvent, portalSession, rateLimitBucket, stripeEvent } from './seed';

const platform = usePlatform();

/**
 * The database with every batch statement's deleted row count recorded: a DELETE's count, or the
 * `deleted` a purge that reads its batch back (the attempts') selects.
 */
function counting(db: Database): { db: Database; statements: number[] } {
  const statements: number[] = [];
  const wrapped = new Proxy(db, {
    get(target, property, receiver) {
      if (property === '$executeRaw') {
        return async (...args: Parameters<Database['$executeRaw']>) => {
          const count = await target.$executeRaw(...args);
          statements.push(count);
          return count;
        };
      }
      if (property === '$queryRaw') {
        return async (...args: Parameters<Database['$queryRaw']>) => {
          const rows = (await target.$queryRaw(...args)) as Array<{ deleted: number }>;
          statements.push(rows[0]!.deleted);
          return rows;
        };
      }
      return Reflect.get(target, property, receiver);
    },
  });
  return { db: wrapped, statements };
}

function deps(db: Database, batchSize: number): RetentionDeps {
  return { db, now: () => new Date(), settings: { ...retentionSettings({}), batchSize } };
}

const ago = (ms: number) => new Date(Date.now() - ms);
const noProgress = () => {};

/** Every statement within the limit, and ceil(N / limit) statements that deleted rows. */
function expectBounded(result: PurgeResult, statements: number[], rows: number, limit: number): void {
  expect(result.deleted).toBe(rows);
  expect(Math.max(...statements)).toBeLessThanOrEqual(limit);
  expect(statements.filter((count) => count > 0)).toHaveLength(Math.ceil(rows / limit));
  expect(result.batches).toBe(Math.ceil(rows / limit));
  expect(statements.reduce((sum, count) => sum + count, 0)).toBe(rows);
}

describe('retention purges', () => {
  it('delete in batches of at most the limit: N rows in ceil(N / limit) statements, each table', async () => {
    const { db, accountId } = platform;
    const endpointId = await inactiveEndpoint(db, accountId);
    const limit = 3;
    for (let i = 0; i < 7; i++) {
      const eventId = await outboxEvent(db, accountId, { createdAt: ago(60 * DAY), dispatchedAt: ago(60 * DAY) });
      // 7 deliveries with 2 attempts each: 14 attempts.
      await delivery(db, accountId, endpointId, eventId, 'SUCCEEDED', ago(40 * DAY), 2);
    }
    await auditRows(db, accountId, 10, ago(401 * DAY));
    for (let i = 0; i < 7; i++) await portalSession(db, accountId, ago(8 * DAY), ago(8 * DAY));
    for (let i = 0; i < 4; i++) await stripeEvent(db, accountId, ago(40 * DAY), ago(40 * DAY));
    for (let i = 0; i < 5; i++) await rateLimitBucket(db, Date.now() - 2 * DAY);
    for (let i = 0; i < 3; i++) await invitation(db, accountId, ago(31 * DAY));
    await db.idempotencyRecord.createMany({
      data: Array.from({ length: 8 }, (_, i) => ({
        apiKeyId: 'akey_gone', key: `old-${i}`, operation: 'x', requestHash: 'x', responseStatus: 200, responseBody: {}, createdAt: ago(2 * DAY), expiresAt: ago(DAY),
      })),
    });

    const cases: Array<[string, (d: RetentionDeps) => Promise<PurgeResult>, number]> = [
      ['attempts', (d) => purgeWebhookDeliveryAttempts(d, noProgress), 14],
      ['deliveries', (d) => purgeWebhookDeliveries(d, noProgress), 7],
      ['outbox events', (d) => purgeOutboxEvents(d, noProgress), 7],
      ['audit log', (d) => purgeDashboardAuditLog(d, noProgress), 10],
      ['portal sessions', (d) => purgeCustomerPortalSessions(d, noProgress), 7],
      ['stripe events', (d) => purgeStripeEvents(d, noProgress), 4],
      ['rate-limit buckets', (d) => purgeRateLimitBuckets(d, noProgress), 5],
      ['invitations', (d) => purgeDashboardInvitations(d, noProgress), 3],
    ];
    for (const [table, purge, rows] of cases) {
      const { db: counted, statements } = counting(db);
      const result = await purge(deps(counted, limit));
      expect({ table, deleted: result.deleted }).toEqual({ table, deleted: rows });
      expectBounded(result, statements, rows, limit);
    }

    const { db: counted, statements } = counting(db);
    const progress: number[] = [];
    const idempotency = await purgeExpiredIdempotencyRecords({ db: counted }, (done) => progress.push(done.deleted), { batchSize: 3 });
    expectBounded(idempotency, statements, 8, 3);
    expect(progress).toEqual([3, 6]);
  });

  it('never deletes an undelivered event, a delivery still retrying or its attempts; deletes final ones past the retention', async () => {
    const { db, accountId } = platform;
    const endpointId = await inactiveEndpoint(db, accountId);
    const old = ago(60 * DAY);
    const undispatched = await outboxEvent(db, accountId, { createdAt: old, dispatchedAt: null });
    const retrying = await outboxEvent(db, accountId, { createdAt: old, dispatchedAt: old });
    const retryingDelivery = await delivery(db, accountId, endpointId, retrying, 'PENDING', old, 3);
    const failed = await outboxEvent(db, accountId, { createdAt: old, dispatchedAt: old });
    const failedDelivery = await delivery(db, accountId, endpointId, failed, 'FAILED', ago(31 * DAY), 10);
    // Redelivered lately: its delivery changed 2 days ago, so the old event stays with it.
    const redelivered = await outboxEvent(db, accountId, { createdAt: old, dispatchedAt: old });
    const recentDelivery = await delivery(db, accountId, endpointId, redelivered, 'SUCCEEDED', ago(2 * DAY), 4);
    const noEndpoint = await outboxEvent(db, accountId, { createdAt: old, dispatchedAt: old });
    const recent = await outboxEvent(db, accountId, { createdAt: ago(DAY), dispatchedAt: ago(DAY) });

    const d = deps(db, 2);
    await purgeWebhookDeliveryAttempts(d, noProgress);
    await purgeWebhookDeliveries(d, noProgress);
    await purgeOutboxEvents(d, noProgress);

    const events = (await db.outboxEvent.findMany({ where: { id: { in: [undispatched, retrying, failed, redelivered, noEndpoint, recent] } } })).map((e) => e.id);
    expect(events.sort()).toEqual([undispatched, retrying, redelivered, recent].sort());
    const deliveries = await db.webhookDelivery.findMany({ where: { endpointId }, include: { attempts: true } });
    expect(deliveries.map((row) => [row.id, row.attempts.length]).sort()).toEqual(
      [
        [retryingDelivery, 3],
        [recentDelivery, 4],
      ].sort(),
    );
    expect(await db.webhookDeliveryAttempt.count({ where: { deliveryId: failedDelivery } })).toBe(0);
  });

  it('walks past a delivery whose attempts are still there: deletes the deliveries before and after it, keeps it', async () => {
    const { db, accountId } = platform;
    const endpointId = await inactiveEndpoint(db, accountId);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const eventId = await outboxEvent(db, accountId, { createdAt: ago(60 * DAY), dispatchedAt: ago(60 * DAY) });
      ids.push(await delivery(db, accountId, endpointId, eventId, 'FAILED', ago((50 - i) * DAY), i === 1 ? 2 : 0));
    }
    const result = await purgeWebhookDeliveries(deps(db, 2), noProgress);
    expect(result.deleted).toBe(4);
    expect(await db.webhookDelivery.findMany({ where: { endpointId }, select: { id: true } })).toEqual([{ id: ids[1] }]);
  });

  it('keeps a live portal session, an unapplied Stripe event, a recent bucket and a recently expired invitation', async () => {
    const { db, accountId } = platform;
    const live = await portalSession(db, accountId, ago(60 * 60_000), ago(60_000));
    const unopened = await portalSession(db, accountId, ago(5 * 60_000));
    const ended = await portalSession(db, accountId, ago(8 * DAY), ago(8 * DAY));
    const unapplied = await stripeEvent(db, accountId, ago(60 * DAY), null);
    const retried = await stripeEvent(db, accountId, ago(3 * DAY), ago(3 * DAY));
    const applied = await stripeEvent(db, accountId, ago(31 * DAY), ago(31 * DAY));
    const fresh = await rateLimitBucket(db, Date.now() - 60_000);
    const idle = await rateLimitBucket(db, Date.now() - 25 * 60 * 60_000);
    const justExpired = await invitation(db, accountId, ago(DAY));
    const longExpired = await invitation(db, accountId, ago(31 * DAY));
    await auditRows(db, accountId, 1, ago(399 * DAY));

    const d = deps(db, 100);
    await purgeCustomerPortalSessions(d, noProgress);
    await purgeStripeEvents(d, noProgress);
    await purgeRateLimitBuckets(d, noProgress);
    await purgeDashboardInvitations(d, noProgress);
    await purgeDashboardAuditLog(d, noProgress);

    const sessions = (await db.customerPortalSession.findMany({ where: { id: { in: [live, unopened, ended] } } })).map((row) => row.id);
    expect(sessions.sort()).toEqual([live, unopened].sort());
    const events = (await db.stripeEvent.findMany({ where: { eventId: { in: [unapplied, retried, applied] } } })).map((row) => row.eventId);
    expect(events.sort()).toEqual([unapplied, retried].sort());
    expect((await db.rateLimitBucket.findMany({ where: { id: { in: [fresh, idle] } } })).map((row) => row.id)).toEqual([fresh]);
    expect((await db.dashboardInvitation.findMany({ where: { id: { in: [justExpired, longExpired] } } })).map((row) => row.id)).toEqual([justExpired]);
    expect(await db.dashboardAuditEntry.count({ where: { createdAt: { lt: ago(398 * DAY) } } })).toBe(1);
  });

  it('keeps a Stripe event given up as failed: it is left to the operator, its payload the only record of it', async () => {
    const { db, accountId } = platform;
    const failed = await stripeEvent(db, accountId, ago(34 * DAY), ago(31 * DAY));
    await db.stripeEvent.update({ where: { accountId_eventId: { accountId, eventId: failed } }, data: { outcome: 'failed: database unavailable' } });
    const applied = await stripeEvent(db, accountId, ago(31 * DAY), ago(31 * DAY));

    await purgeStripeEvents(deps(db, 100), noProgress);

    expect((await db.stripeEvent.findMany({ where: { eventId: { in: [failed, applied] } } })).map((row) => row.eventId)).toEqual([failed]);
  });

  it('never deletes an idempotency record inside its 24 hours', async () => {
    const { db } = platform;
    const record = (key: string, createdAt: Date) => ({
      apiKeyId: 'akey_kept', key, operation: 'x', requestHash: 'x', responseStatus: 200, responseBody: {}, createdAt, expiresAt: new Date(createdAt.getTime() + DAY),
    });
    await db.idempotencyRecord.deleteMany({});
    await db.idempotencyRecord.createMany({ data: [record('inside', ago(DAY - 60_000)), record('past', ago(DAY + 60_000))] });
    const result = await purgeExpiredIdempotencyRecords({ db }, noProgress, { batchSize: 1 });
    expect(result.batches).toBe(1);
    expect((await db.idempotencyRecord.findMany({ where: { apiKeyId: 'akey_kept' } })).map((row) => row.key)).toEqual(['inside']);
  });

  it('refuses a retention shorter than the guarantee it would break', () => {
    expect(() => retentionSettings({ RETENTION_STRIPE_EVENT_DAYS: '2' })).toThrow(/RETENTION_STRIPE_EVENT_DAYS must be a whole number, at least 4/);
    expect(() => retentionSettings({ RETENTION_WEBHOOK_DELIVERY_DAYS: '3' })).toThrow(/RETENTION_WEBHOOK_DELIVERY_DAYS must be a whole number, at least 7/);
    // An event outlives its deliveries: a shorter retention would leave the named events at the head of every batch.
    expect(() => retentionSettings({ RETENTION_OUTBOX_EVENT_DAYS: '20' })).toThrow(/RETENTION_OUTBOX_EVENT_DAYS must be a whole number, at least 30/);
    expect(() => retentionSettings({ RETENTION_WEBHOOK_DELIVERY_DAYS: '90', RETENTION_OUTBOX_EVENT_DAYS: '60' })).toThrow(/at least 90/);
    expect(retentionSettings({ RETENTION_WEBHOOK_DELIVERY_DAYS: '10', RETENTION_OUTBOX_EVENT_DAYS: '10' }).outboxEventMs).toBe(10 * DAY);
    expect(() => retentionSettings({ RETENTION_BATCH_SIZE: '1000000' })).toThrow(/from 1 to 100000/);
    expect(() => retentionSettings({ RETENTION_BATCH_SIZE: '1e3' })).toThrow(/not "1e3"/);
    expect(() => retentionSettings({ RETENTION_AUDIT_LOG_DAYS: ' 7 ' })).toThrow(/not " 7 "/);
    expect(() => retentionSettings({ RETENTION_PORTAL_SESSION_DAYS: '0' })).toThrow(/at least 1/);
    expect(retentionSettings({ RETENTION_AUDIT_LOG_DAYS: '30' }).auditLogMs).toBe(30 * DAY);
    expect(retentionSettings({}).auditLogMs).toBe(400 * DAY);
    expect(retentionSettings({}).busyShare).toBe(0.1);
    expect(retentionSettings({ RETENTION_BUSY_PERCENT: '100' }).busyShare).toBe(1);
    expect(() => retentionSettings({ RETENTION_BUSY_PERCENT: '0' })).toThrow(/RETENTION_BUSY_PERCENT must be a whole number, from 1 to 100/);
  });
});
