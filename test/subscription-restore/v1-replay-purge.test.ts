import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { V1_REPLAY_WINDOW_MS } from '../../services/v1/seen-requests';
import { IDEMPOTENCY_PURGE_WORKFLOW_ID, TASK_QUEUE } from '../../domain/workflow-ids';
import type { idempotencyPurgeWorkflow } from '../../workflows/idempotency-purge';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

const hash = (text: string) => new Uint8Array(createHash('sha256').update(text).digest());

describe('v1 restore request purge', () => {
  it('the maintenance workflow deletes request hashes past the 24-hour window and keeps the others', async () => {
    const { db, env, accountId } = platform;
    const now = Date.now();
    await db.v1RestoreRequest.createMany({
      data: [
        { accountId, bodyHash: hash('old'), seenAt: new Date(now - V1_REPLAY_WINDOW_MS - 60_000) },
        { accountId, bodyHash: hash('older'), seenAt: new Date(now - 3 * V1_REPLAY_WINDOW_MS) },
        // Still inside the window for the next 10 minutes at least: a replay of it is still refused.
        { accountId, bodyHash: hash('recent'), seenAt: new Date(now - V1_REPLAY_WINDOW_MS + 10 * 60_000) },
      ],
    });

    const handle = await env.client.workflow.start<typeof idempotencyPurgeWorkflow>('idempotencyPurgeWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: IDEMPOTENCY_PURGE_WORKFLOW_ID,
      args: [{ intervalMinutes: 60 }],
    });
    try {
      await env.sleep('30 minutes');
      const left = await db.v1RestoreRequest.findMany({ where: { accountId } });
      expect(left.map((r) => Buffer.from(r.bodyHash).equals(hash('recent')))).toEqual([true]);
    } finally {
      await handle.terminate('test over');
    }
  });
});

describe('the purge workflow with the v1 step added', () => {
  it('replays a history recorded before the step existed without a nondeterminism error', async () => {
    // Two purge runs and their timers, recorded from the workflow as it was before the v1 step.
    const recorded = temporal.api.history.v1.History.decode(readFileSync(join(__dirname, 'fixtures', 'idempotency-purge-before-v1-purge.binpb')));
    await expect(
      Worker.runReplayHistory({ workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! } }, recorded, IDEMPOTENCY_PURGE_WORKFLOW_ID),
    ).resolves.toBeUndefined();
  });
});
