import { IDEMPOTENCY_PURGE_WORKFLOW_ID, TASK_QUEUE } from '../../domain/workflow-ids';
import type { idempotencyPurgeWorkflow } from '../../workflows/idempotency-purge';
import { usePlatform } from '../support/platform';
import { signedInUser } from './browser-session';

const platform = usePlatform();

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe('sign-in records purge', () => {
  it('the maintenance workflow deletes sign-in counts whose window is over and clients not seen for 90 days, and keeps the others', async () => {
    const { db, env } = platform;
    await signedInUser(platform, 'purged@example.test', 'SUPPORT');
    const user = await db.dashboardUser.findFirstOrThrow({ where: { email: 'purged@example.test' } });
    const now = Date.now();
    await db.dashboardSignInThrottle.deleteMany({});
    await db.dashboardSignInThrottle.createMany({
      data: [
        { key: 'email:tried-once@example.test', attempts: 1, windowStartedAt: new Date(now - 16 * MINUTE) },
        { key: 'address:203.0.113.5', attempts: 30, windowStartedAt: new Date(now - 3 * DAY) },
        // Still counting for the next 10 minutes at least.
        { key: 'email:current@example.test', attempts: 4, windowStartedAt: new Date(now - 5 * MINUTE) },
      ],
    });
    await db.dashboardKnownClient.deleteMany({});
    await db.dashboardKnownClient.createMany({
      data: [
        { userId: user.id, clientKey: 'address:198.51.100.1', lastSignedInAt: new Date(now - 91 * DAY) },
        { userId: user.id, clientKey: 'address:198.51.100.2', lastSignedInAt: new Date(now - 80 * DAY) },
      ],
    });

    const handle = await env.client.workflow.start<typeof idempotencyPurgeWorkflow>('idempotencyPurgeWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: IDEMPOTENCY_PURGE_WORKFLOW_ID,
      args: [{ intervalMinutes: 60 }],
    });
    try {
      await env.sleep('30 minutes');
      expect((await db.dashboardSignInThrottle.findMany()).map((row) => row.key)).toEqual(['email:current@example.test']);
      expect((await db.dashboardKnownClient.findMany()).map((row) => row.clientKey)).toEqual(['address:198.51.100.2']);
    } finally {
      await handle.terminate('test over');
    }
  });
});
