import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';

/**
 * A history recorded by the monthly-statement workflow before it uploaded in batches (one
 * `planMonthlyStatements`, then an `uploadMonthlyStatement` per statement): a run in flight when
 * the batched code is deployed must go on replaying.
 */
it('replays a monthly-statement run recorded before batches', async () => {
  const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(__dirname, 'histories/monthly-statement-before-batches.json'), 'utf8')));
  const scheduled = history.events.map((event) => event.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
  expect(scheduled).toEqual(['planMonthlyStatements', ...Array(4).fill('uploadMonthlyStatement')]);
  await expect(Worker.runReplayHistory({ workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! } }, history)).resolves.toBeUndefined();
});
