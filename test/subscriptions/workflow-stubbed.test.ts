import { WorkflowUpdateStage } from '@temporalio/client';
import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Activities } from '../../activities';
import type { Step, SubscriptionState } from '../../domain/subscriptions/state';
import type { subscriptionWorkflow } from '../../workflows/subscription';
import { updateSubscriptionUpdate } from '../../workflows/subscription-messages';
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

/**
 * Runs `drive` beside a worker whose activities are stubbed; `drive` starts the run. `loaded`:
 * when the run's state may be read; until then its loadSubscription waits.
 */
async function withStubbedWorker<T>(
  state: SubscriptionState,
  drive: (taskQueue: string) => Promise<T>,
  loaded: Promise<void> = Promise.resolve(),
  more: Partial<Activities> = {},
): Promise<{ result: T; saved: Step[] }> {
  const saved: Step[] = [];
  const stubs: Partial<Activities> = {
    ...more,
    loadSubscription: async () => {
      await loaded;
      return state;
    },
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
  const result = await worker.runUntil(drive(taskQueue));
  return { result, saved };
}

async function run(state: SubscriptionState): Promise<{ result: { status: string }; saved: Step[] }> {
  return withStubbedWorker(state, (taskQueue) =>
    env.client.workflow.execute<typeof subscriptionWorkflow>('subscriptionWorkflow', { taskQueue, workflowId: `wf-${state.id}`, args: [{ subscriptionId: state.id }] }),
  );
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

  it('two changes accepted before the state is read are saved one after the other, each on the version the first wrote', async () => {
    // The server's clock: the cases before this one skipped it ahead, and a cycle already due would bill.
    const now = await env.currentTimeMs();
    const state = subscription({ id: 'sub_stub_two_updates', nextCycleAt: now + 10 * 86_400_000 });
    let release!: () => void;
    const loaded = new Promise<void>((resolve) => (release = resolve));
    // Started, not executed: time skipping stays locked, so no timer of the run falls due meanwhile.
    const { saved } = await withStubbedWorker(
      state,
      async (taskQueue) => {
        const handle = await env.client.workflow.start<typeof subscriptionWorkflow>('subscriptionWorkflow', { taskQueue, workflowId: `wf-${state.id}`, args: [{ subscriptionId: state.id }] });
        // Both are accepted while the run still waits for its state: both handlers then wait for the same thing.
        const accepted = await Promise.all(
          [{ description: 'first' }, { metadata: { second: 'yes' } }].map((changes) =>
            handle.startUpdate(updateSubscriptionUpdate, { args: [changes], waitForStage: WorkflowUpdateStage.ACCEPTED }),
          ),
        );
        release();
        await Promise.all(accepted.map((update) => update.result()));
        await handle.terminate('test over');
      },
      loaded,
    );
    expect(saved.map((s) => s.state.version)).toEqual([state.version + 1, state.version + 2]);
    expect(saved.map((s) => s.events)).toEqual([['SubscriptionUpdated'], ['SubscriptionUpdated']]);
    // The second change was made on the first's state, whichever came first.
    expect(saved[1]!.state).toMatchObject({ description: 'first', metadata: { second: 'yes' } });
  });

  it('a renewal that fails for a day (the database unreachable) retries with waits growing to 10 minutes, about a thousand events, then renews', async () => {
    const DAY = 86_400_000;
    const now = await env.currentTimeMs();
    const state = subscription({ id: 'sub_stub_outage', nextCycleAt: now + 60_000 });
    const outageEnds = now + DAY;
    let attempts = 0;
    let renewed!: () => void;
    const renewal = new Promise<void>((resolve) => (renewed = resolve));
    const renewSubscriptionPeriod = (async () => {
      attempts++;
      if ((await env.currentTimeMs()) < outageEnds) throw new Error('database unreachable');
      renewed();
      return { invoice: { id: 'inv_stub_outage', status: 'PAID' } };
    }) as unknown as Activities['renewSubscriptionPeriod'];
    const { result: events } = await withStubbedWorker(
      state,
      async (taskQueue) => {
        const handle = await env.client.workflow.start<typeof subscriptionWorkflow>('subscriptionWorkflow', { taskQueue, workflowId: `wf-${state.id}`, args: [{ subscriptionId: state.id }] });
        let done = false;
        void renewal.then(() => (done = true));
        // Started, not executed: the clock moves only as far as this loop skips it, past the outage and no further.
        while (!done) await env.sleep(10 * 60_000);
        const { events } = await handle.fetchHistory();
        await handle.terminate('test over');
        return events!.length;
      },
      undefined,
      { renewSubscriptionPeriod },
    );
    // Exponential from 1 s, capped at 10 minutes: about 150 attempts over the day (1,445 with a
    // 1-minute cap), each past the first few a marker, a timer and a workflow task (921 events here).
    expect(attempts).toBeGreaterThan(100);
    expect(attempts).toBeLessThan(200);
    expect(events).toBeGreaterThan(attempts * 5);
    expect(events).toBeLessThan(1_500);
  });
});
