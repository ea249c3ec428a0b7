import { RETENTION_WORKFLOW_ID, TASK_QUEUE } from '../../domain/workflow-ids';
import type { retentionWorkflow } from '../../workflows/retention';
import { usePlatform } from '../support/platform';
import { auditRows, DAY, delivery, inactiveEndpoint, invitation, outboxEvent, portalSession, rateLimitBucket, stripeEvent } from './seed';

const platform = usePlatform();

const ago = (ms: number) => new Date(Date.now() - ms);

const STEPS = [
  'retainWebhookDeliveryAttempts',
  'retainWebhookDeliveries',
  'retainOutboxEvents',
  'retainDashboardAuditLog',
  'retainCustomerPortalSessions',
  'retainDashboardInvitations',
  'retainDashboardPasswordResets',
  'retainStripeEvents',
  'retainRateLimitBuckets',
];

describe('retention workflow', () => {
  it('runs every step in order on every run, deletes what is past its retention, keeps what is live, and continues as new', async () => {
    const { db, env, accountId } = platform;
    const endpointId = await inactiveEndpoint(db, accountId);
    const old = ago(60 * DAY);
    const doneEvent = await outboxEvent(db, accountId, { createdAt: old, dispatchedAt: old });
    await delivery(db, accountId, endpointId, doneEvent, 'SUCCEEDED', old, 2);
    const retryingEvent = await outboxEvent(db, accountId, { createdAt: old, dispatchedAt: old });
    const retrying = await delivery(db, accountId, endpointId, retryingEvent, 'PENDING', old, 2);
    await auditRows(db, accountId, 3, ago(401 * DAY));
    const oldSession = await portalSession(db, accountId, ago(8 * DAY), ago(8 * DAY));
    const liveSession = await portalSession(db, accountId, ago(60_000), ago(60_000));
    const appliedStripe = await stripeEvent(db, accountId, old, old);
    const idleBucket = await rateLimitBucket(db, Date.now() - 2 * DAY);
    const oldInvitation = await invitation(db, accountId, ago(31 * DAY));

    const handle = await env.client.workflow.start<typeof retentionWorkflow>('retentionWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: RETENTION_WORKFLOW_ID,
      args: [{ intervalMinutes: 60, runsPerExecution: 2 }],
    });
    try {
      await env.sleep('30 minutes');
      expect(await db.outboxEvent.findMany({ where: { id: { in: [doneEvent, retryingEvent] } }, select: { id: true } })).toEqual([{ id: retryingEvent }]);
      expect(await db.webhookDelivery.findMany({ where: { endpointId }, select: { id: true } })).toEqual([{ id: retrying }]);
      expect(await db.webhookDeliveryAttempt.count({ where: { deliveryId: retrying } })).toBe(2);
      expect(await db.dashboardAuditEntry.count({ where: { accountId, createdAt: { lt: ago(400 * DAY) } } })).toBe(0);
      expect((await db.customerPortalSession.findMany({ where: { id: { in: [oldSession, liveSession] } } })).map((row) => row.id)).toEqual([liveSession]);
      expect(await db.stripeEvent.count({ where: { eventId: appliedStripe } })).toBe(0);
      expect(await db.rateLimitBucket.count({ where: { id: idleBucket } })).toBe(0);
      expect(await db.dashboardInvitation.count({ where: { id: oldInvitation } })).toBe(0);

      const history = await handle.fetchHistory();
      const scheduled = (history.events ?? []).flatMap((event) => event.activityTaskScheduledEventAttributes?.activityType?.name ?? []);
      expect(scheduled).toEqual(STEPS);

      // Rows that turn old later are deleted by a later run, past the hand-over to a new execution.
      await auditRows(db, accountId, 2, ago(500 * DAY));
      await env.sleep('3 hours');
      expect(await db.dashboardAuditEntry.count({ where: { accountId, createdAt: { lt: ago(400 * DAY) } } })).toBe(0);
      const latest = await env.client.workflow.getHandle(RETENTION_WORKFLOW_ID).describe();
      expect(latest.runId).not.toBe(handle.firstExecutionRunId);
      expect(latest.status.name).toBe('RUNNING');
      expect(await db.webhookDeliveryAttempt.count({ where: { deliveryId: retrying } })).toBe(2);
    } finally {
      await env.client.workflow.getHandle(RETENTION_WORKFLOW_ID).terminate('test over');
    }
  });
});
