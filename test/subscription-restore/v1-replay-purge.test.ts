import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { IDEMPOTENCY_PURGE_WORKFLOW_ID, TASK_QUEUE } from '../../domain/workflow-ids';
import type { idempotencyPurgeWorkflow } from '../../workflows/idempotency-purge';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

const hash = (text: string) => new Uint8Array(createHash('sha256').update(text).digest());

describe('v1 restore answer purge', () => {
  it('the maintenance workflow deletes the answers of a secret whose overlap ended, whatever their age, and keeps the live ones', async () => {
    const { db, env, accountId } = platform;
    const now = Date.now();
    // Generation 2 is current; 1 was rotated out an hour ago; a row of 0 outlived its rotation.
    await db.account.update({
      where: { id: accountId },
      data: { v1SigningSecret: Buffer.from('sealed'), v1PreviousSigningSecret: Buffer.from('sealed before'), v1PreviousSecretExpiresAt: new Date(now - 3_600_000), v1SecretGeneration: 2 },
    });
    const answer = { responseStatus: 200, responseBody: { status: 'ok' } };
    await db.v1RestoreRequest.createMany({
      data: [
        { accountId, bodyHash: hash('previous'), secretGeneration: 1, seenAt: new Date(now - 60_000), ...answer },
        { accountId, bodyHash: hash('older'), secretGeneration: 0, seenAt: new Date(now - 60_000), ...answer },
        // A month old, but its secret is the current one: a replay of it is still answered.
        { accountId, bodyHash: hash('current'), secretGeneration: 2, seenAt: new Date(now - 31 * 24 * 3_600_000), ...answer },
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
      expect(left.map((r) => Buffer.from(r.bodyHash).equals(hash('current')))).toEqual([true]);
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
