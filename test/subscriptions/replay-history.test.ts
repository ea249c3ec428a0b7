import { readFileSync } from 'node:fs';
import { join } from 'node:path';
// @temporalio/proto comes with @temporalio/worker (same pinned version); historyFromJSON of
// @temporalio/common trips over its own nested protobufjs in this install.
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';

/**
 * Histories of subscriptionWorkflow recorded with earlier code, which the current code must
 * replay command for command, as runs open at a deploy will:
 * - from before a billing step was one activity: a paid renewal, a renewal in dunning (its
 *   collection child still open), a first charge declined for good. Each saves, then starts a
 *   collection child.
 * - from when that activity, renewSubscriptionPeriod, was scheduled rather than run locally: a
 *   paid renewal, and a declined one gone to its collection child.
 */
const dir = join(__dirname, 'histories');
const BEFORE_ONE_ACTIVITY = ['subscription-renewal-paid.json', 'subscription-renewal-in-dunning.json', 'subscription-first-charge-declined-for-good.json'];
const BEFORE_LOCAL = ['subscription-renewal-paid-in-one-activity.json', 'subscription-renewal-declined-in-one-activity.json'];

function read(file: string) {
  const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(dir, file), 'utf8')));
  return {
    history,
    scheduled: history.events.map((event) => event.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean),
    markers: history.events.map((event) => event.markerRecordedEventAttributes?.markerName).filter(Boolean),
    children: history.events.filter((event) => event.startChildWorkflowExecutionInitiatedEventAttributes).length,
  };
}

describe('subscriptionWorkflow replays histories of earlier code', () => {
  it.each(BEFORE_ONE_ACTIVITY)('from before renewSubscriptionPeriod: %s', async (file) => {
    const { history, scheduled, children } = read(file);
    expect(scheduled).not.toContain('renewSubscriptionPeriod');
    expect(children).toBeGreaterThan(0);
    await Worker.runReplayHistory({ workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! } }, history, file);
  });

  it.each(BEFORE_LOCAL)('from when renewSubscriptionPeriod was scheduled: %s', async (file) => {
    const { history, scheduled, markers } = read(file);
    expect(scheduled.filter((name) => name === 'renewSubscriptionPeriod')).toHaveLength(2);
    expect(markers).not.toContain('core_local_activity');
    await Worker.runReplayHistory({ workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! } }, history, file);
  });
});
