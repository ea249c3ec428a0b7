import { IDEMPOTENCY_PURGE_WORKFLOW_ID, TASK_QUEUE } from '../../domain/workflow-ids';
import type { idempotencyPurgeWorkflow } from '../../workflows/idempotency-purge';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

describe('idempotency record purge', () => {
  it('deletes records past their life on every run, keeps live ones, and hands over to a new execution', async () => {
    const { db, env } = platform;
    const created = await platform.call('/v2/api-keys/create', { name: 'purge', permissions: ['invoices:get'] }, { headers: { 'idempotency-key': 'live' } });
    expect(created.status).toBe(200);
    const past = new Date(Date.now() - 1000);
    await db.idempotencyRecord.createMany({
      data: Array.from({ length: 3 }, (_, i) => ({
        apiKeyId: 'akey_gone',
        key: `old-${i}`,
        operation: 'api-keys/create',
        requestHash: 'x',
        responseStatus: 200,
        responseBody: {},
        createdAt: past,
        expiresAt: past,
      })),
    });

    const handle = await env.client.workflow.start<typeof idempotencyPurgeWorkflow>('idempotencyPurgeWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: IDEMPOTENCY_PURGE_WORKFLOW_ID,
      args: [{ intervalMinutes: 60, runsPerExecution: 2 }],
    });
    await env.sleep('30 minutes');
    expect(await db.idempotencyRecord.count({ where: { apiKeyId: 'akey_gone' } })).toBe(0);
    expect(await db.idempotencyRecord.count({ where: { key: 'live' } })).toBe(1);

    await db.idempotencyRecord.create({
      data: { apiKeyId: 'akey_gone', key: 'later', operation: 'x', requestHash: 'x', responseStatus: 200, responseBody: {}, createdAt: past, expiresAt: past },
    });
    await env.sleep('3 hours');
    expect(await db.idempotencyRecord.count({ where: { apiKeyId: 'akey_gone' } })).toBe(0);

    const latest = await env.client.workflow.getHandle(IDEMPOTENCY_PURGE_WORKFLOW_ID).describe();
    expect(latest.runId).not.toBe(handle.firstExecutionRunId);
    expect(latest.status.name).toBe('RUNNING');
    await env.client.workflow.getHandle(IDEMPOTENCY_PURGE_WORKFLOW_ID).terminate('test over');
  });
});
