import { METRICS_ROLLUP_WORKFLOW_ID, TASK_QUEUE } from '../../domain/workflow-ids';
import { readOverview } from '../../services/metrics/overview';
import type { metricsRollupWorkflow } from '../../workflows/metrics-rollup';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

const changes = async () => Number((await platform.db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM metrics_payment_day_changes`)[0]!.n);

async function payment(id: string, status: string, amount: number, at: Date) {
  await platform.db.$executeRaw`
    INSERT INTO payments (id, account_id, channel_id, customer_id, instrument_id, idempotency_key, amount, currency, status, attempts, created_at, updated_at)
    VALUES (${id}, ${platform.accountId}, 'chan_x', 'cus_x', 'pi_x', ${id}, ${amount}, 'EUR', ${status}, '[]'::jsonb, ${at}, ${at})`;
}

describe('metrics roll-up workflow', () => {
  it('folds the day changes of payments every interval, leaves the figures as they were, and continues as new', async () => {
    const { env, db, accountId } = platform;
    const at = new Date(Date.UTC(2026, 4, 10, 12));
    const may = { from: Date.UTC(2026, 4, 1), to: Date.UTC(2026, 5, 1) };
    await payment('pay_fold1', 'SUCCEEDED', 4_000, at);
    await payment('pay_fold2', 'PROCESSING', 6_000, at);
    expect(await changes()).toBe(2);
    const before = await readOverview(db, accountId, { currency: 'EUR', period: may }, Date.now());
    expect(before.grossVolume.current).toBe(4_000);

    const handle = await env.client.workflow.start<typeof metricsRollupWorkflow>('metricsRollupWorkflow', {
      taskQueue: TASK_QUEUE,
      workflowId: METRICS_ROLLUP_WORKFLOW_ID,
      args: [{ intervalMinutes: 1, runsPerExecution: 2 }],
    });
    try {
      await env.sleep('30 seconds');
      expect(await changes()).toBe(0);
      expect((await readOverview(db, accountId, { currency: 'EUR', period: may }, Date.now())).grossVolume.current).toBe(4_000);

      // A status change of a folded day is folded by a later run, past the hand-over to a new execution.
      await db.$executeRaw`UPDATE payments SET status = 'SUCCEEDED' WHERE id = 'pay_fold2'`;
      expect(await changes()).toBe(2);
      await env.sleep('3 minutes');
      expect(await changes()).toBe(0);
      expect((await readOverview(db, accountId, { currency: 'EUR', period: may }, Date.now())).grossVolume.current).toBe(10_000);
      const latest = await env.client.workflow.getHandle(METRICS_ROLLUP_WORKFLOW_ID).describe();
      expect(latest.runId).not.toBe(handle.firstExecutionRunId);
      expect(latest.status.name).toBe('RUNNING');
      const days = await db.$queryRaw<{ status: string; n: bigint; amount: bigint }[]>`
        SELECT status, payment_count AS n, amount FROM metrics_payment_days WHERE account_id = ${accountId} ORDER BY status`;
      expect(days.map((row) => [row.status, Number(row.n), Number(row.amount)])).toEqual([
        ['PROCESSING', 0, 0],
        ['SUCCEEDED', 2, 10_000],
      ]);
    } finally {
      await env.client.workflow.getHandle(METRICS_ROLLUP_WORKFLOW_ID).terminate('test over');
    }
  });
});
