import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Activities } from '../../activities';
import type { Step, SubscriptionState } from '../../domain/subscriptions/state';
import type { subscriptionWorkflow } from '../../workflows/subscription';
import { createTestWorkflowEnvironment } from '../support/temporal';
import { subscription } from '../domain/subscriptions/fixtures';

/**
 * The workflow's timed steps with its activities stubbed: no database, no invoice, so a case
 * that only needs the state machine and its timers runs in seconds instead of end to end.
 */
let env: TestWorkflowEnvironment;

beforeAll(async () => {
  env = await createTestWorkflowEnvironment();
});

afterAll(async () => {
  await env?.teardown();
});

async function run(state: SubscriptionState): Promise<{ result: { status: string }; saved: Step[] }> {
  const saved: Step[] = [];
  const stubs: Partial<Activities> = {
    loadSubscription: async () => state,
    saveSubscription: (async ({ state: written, events }: Step) => {
      saved.push({ state: written, events });
      return { subscription: {}, invoice: null };
    }) as unknown as Activities['saveSubscription'],
    subscriptionInvoicesOwed: async () => 0,
  };
  const taskQueue = `subscription-stubbed-${state.id}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    activities: stubs,
    workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! },
  });
  const result = await worker.runUntil(
    env.client.workflow.execute<typeof subscriptionWorkflow>('subscriptionWorkflow', { taskQueue, workflowId: `wf-${state.id}`, args: [{ subscriptionId: state.id }] }),
  );
  return { result, saved };
}

describe('subscriptionWorkflow with stubbed activities', () => {
  it('a PERIOD_END cancellation falls due at cancel_at: one save, CANCELLED, SubscriptionCancelled, and the run ends', async () => {
    const now = Date.now();
    const cancelAt = now + 3 * 86_400_000;
    const state = subscription({
      id: 'sub_stub_cancel',
      nextCycleAt: now + 10 * 86_400_000,
      cancellation: { mode: 'PERIOD_END', cancelAt, requestedAt: now, reason: 'CANCELLATION_REQUESTED', comment: null },
    });
    const { result, saved } = await run(state);
    expect(result).toEqual({ status: 'CANCELLED' });
    expect(saved).toHaveLength(1);
    expect(saved[0]!.events).toEqual(['SubscriptionCancelled']);
    expect(saved[0]!.state).toMatchObject({ status: 'CANCELLED', version: state.version + 1, nextCycleAt: null, cancellation: { mode: 'PERIOD_END', cancelAt } });
    expect(saved[0]!.state.updatedAt).toBeGreaterThanOrEqual(cancelAt);
  });

  it('ends_at reached before the next cycle: EXPIRED, SubscriptionExpired', async () => {
    const now = Date.now();
    const state = subscription({ id: 'sub_stub_expire', endsAt: now + 86_400_000, nextCycleAt: now + 5 * 86_400_000 });
    const { result, saved } = await run(state);
    expect(result).toEqual({ status: 'EXPIRED' });
    expect(saved.map((s) => [s.state.status, s.events])).toEqual([['EXPIRED', ['SubscriptionExpired']]]);
  });
});
