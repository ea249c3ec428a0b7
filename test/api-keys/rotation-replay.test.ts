import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';

/**
 * Histories recorded by the two rotation workflows before one activity (endSecretOverlap) ended
 * every overlap: each scheduled the activity of its kind. Runs still sleeping through their
 * rotation period when the shared code is deployed must go on replaying.
 */
describe.each([
  ['apiKeyRotationWorkflow', 'api-key-rotation-before-one-overlap-activity.json', 'deactivateApiKeySecret'],
  ['webhookKeyRotationWorkflow', 'webhook-key-rotation-before-one-overlap-activity.json', 'retireWebhookSecret'],
])('%s', (type, file, activity) => {
  it(`replays a run recorded when it scheduled ${activity}`, async () => {
    const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(__dirname, 'histories', file), 'utf8')));
    expect(history.events[0]!.workflowExecutionStartedEventAttributes?.workflowType?.name).toBe(type);
    const scheduled = history.events.map((event) => event.activityTaskScheduledEventAttributes?.activityType?.name).filter(Boolean);
    expect(scheduled).toEqual([activity]);
    await expect(Worker.runReplayHistory({ workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! } }, history, file)).resolves.toBeUndefined();
  });
});
