import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';

/**
 * A history recorded by the settlement workflow before it built files in batches (one
 * `settleDay`, then a `buildSettlementFile` per file): a run in flight when the batched code is
 * deployed must go on replaying, so today's workflow code has to accept it.
 */
it('replays a settlement run recorded before batches', async () => {
  const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(__dirname, 'histories/settlement-before-batches.json'), 'utf8')));
  const scheduled = history.events.map((event) => event.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
  expect(scheduled).toEqual(['settleDay', ...Array(8).fill('buildSettlementFile')]);
  await expect(Worker.runReplayHistory({ workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! } }, history)).resolves.toBeUndefined();
});

/**
 * A history recorded by the batched workflow before it read Stripe's payouts (`openSettlementDay`
 * first, then `buildSettlementBatch`): runs in flight when the Stripe reading is deployed go on
 * opening the day at once (`patched('stripe-payouts')`).
 */
it('replays a batched settlement run recorded before Stripe payouts', async () => {
  const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(__dirname, 'histories/settlement-in-batches-before-stripe.json'), 'utf8')));
  const scheduled = history.events.map((event) => event.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
  expect(scheduled).toEqual(['openSettlementDay', 'buildSettlementBatch']);
  await expect(Worker.runReplayHistory({ workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! } }, history)).resolves.toBeUndefined();
});
