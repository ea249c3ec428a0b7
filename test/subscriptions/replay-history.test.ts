import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
// @temporalio/proto comes with @temporalio/worker (same pinned version); historyFromJSON of
// @temporalio/common trips over its own nested protobufjs in this install.
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';

/**
 * Histories of subscriptionWorkflow recorded with the code from before a billing step was one
 * activity (renewSubscriptionPeriod): a paid renewal, a renewal in dunning (its collection child
 * still open), a first charge declined for good. Each saves, then starts a collection child, so
 * the current code must take the old path on them, command for command, as runs open at a
 * deploy will.
 */
const dir = join(__dirname, 'histories');

describe('subscriptionWorkflow replays histories of earlier code', () => {
  it.each(readdirSync(dir))('%s', async (file) => {
    const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    const scheduled = history.events.map((event) => event.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    expect(scheduled).not.toContain('renewSubscriptionPeriod');
    expect(history.events.some((event) => event.startChildWorkflowExecutionInitiatedEventAttributes)).toBe(true);
    await Worker.runReplayHistory({ workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! } }, history, file);
  });
});
