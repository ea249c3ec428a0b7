import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
// @temporalio/proto comes with @temporalio/worker (same pinned version); historyFromJSON of
// @temporalio/common trips over its own nested protobufjs in this install.
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';

/**
 * Histories of invoiceCollectionWorkflow recorded with the code from before sent invoices were
 * collected (first charge paid, one retry, retries exhausted, cancelled while waiting), as
 * `fetchHistory()` objects: the current code must replay them command for command, as the runs
 * open at a deploy will be.
 */
const dir = join(__dirname, 'histories');

describe('invoiceCollectionWorkflow replays histories of earlier code', () => {
  it.each(readdirSync(dir))('%s', async (file) => {
    const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    await Worker.runReplayHistory({ workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! } }, history, file);
  });
});
