import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultPayloadConverter } from '@temporalio/common';
import type { WorkflowHandle, WorkflowHandleWithFirstExecutionRunId } from '@temporalio/client';
import { WorkflowContinuedAsNewError } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { formatDateTime } from '../../domain/datetime';
import { idempotencyPurgeSummary, paymentSweepSummary } from '../../domain/maintenance-summaries';
import { invoiceCollectionWorkflowId, subscriptionWorkflowId, TASK_QUEUE } from '../../domain/workflow-ids';
import { merchant, waitFor } from '../invoices-payments/fixtures';
import { usePlatform } from '../support/platform';

/**
 * What an operator reads in the Temporal UI (docs/operators.md, "Summaries"): every activity a
 * workflow schedules carries a business summary on its ActivityTaskScheduled event; a run that
 * continued as new states its workflow's summary in its current details (Temporal gives it no
 * static summary of its own), and long waits say until when and for what.
 */

const platform = usePlatform();
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let sequence = 0;
async function start(workflowType: string, args: unknown[], staticSummary?: string): Promise<WorkflowHandleWithFirstExecutionRunId> {
  return platform.env.client.workflow.start(workflowType, { taskQueue: TASK_QUEUE, workflowId: `summaries-${++sequence}`, args, staticSummary });
}

/** One run only: a workflow that continues as new is not followed into its next run. */
async function firstRun(handle: WorkflowHandleWithFirstExecutionRunId): Promise<WorkflowHandle> {
  return platform.env.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId, { followRuns: false });
}

/** The activities the run scheduled, each with the summary its ActivityTaskScheduled event carries. */
async function scheduled(handle: WorkflowHandle): Promise<{ activity: string; summary: string | undefined }[]> {
  const history = await handle.fetchHistory();
  return history.events!.flatMap((event) => {
    const attributes = event.activityTaskScheduledEventAttributes;
    if (!attributes) return [];
    const payload = event.userMetadata?.summary;
    return [{ activity: attributes.activityType!.name!, summary: payload ? defaultPayloadConverter.fromPayload<string>(payload) : undefined }];
  });
}

/** The run's current details, as the UI reads them through the SDK's built-in metadata query. */
async function currentDetails(handle: WorkflowHandle): Promise<string> {
  return ((await handle.query('__temporal_workflow_metadata')) as { currentDetails: string }).currentDetails;
}

/** Runs the first run of a workflow that continues as new to its end; the handle of the run it continued as. */
async function continuedRun(handle: WorkflowHandleWithFirstExecutionRunId): Promise<WorkflowHandle> {
  const error = await (await firstRun(handle)).result().then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WorkflowContinuedAsNewError);
  return platform.env.client.workflow.getHandle(handle.workflowId, (error as WorkflowContinuedAsNewError).newExecutionRunId, { followRuns: false });
}

// The API's cards are checked against the test server's clock: these run before anything skips it far ahead.
describe('current details of long waits', () => {
  it('a subscription waiting for its start says when it bills which cycle, under its summary', async () => {
    const m = merchant(platform);
    const customerId = await m.customer();
    await m.setDefaultInstrument(customerId, await m.card(customerId, '4242424242424242'));
    const product = await m.ok('products/create', { name: 'Pro plan' });
    const price = await m.ok('product-prices/create', { product_id: product.id, currency: 'EUR', amount: 1_000, billing_type: 'RECURRING', billing_period_config: { value: 1, unit: 'MONTH' } });
    const startsAt = new Date((await platform.env.currentTimeMs()) + 5 * DAY);
    const subscription = await m.ok('subscriptions/create', { customer_id: customerId, line_items: [{ product_price_id: price.id, quantity: 1 }], starts_at: startsAt.toISOString() });
    const handle = platform.env.client.workflow.getHandle(subscriptionWorkflowId(subscription.id));
    const details = await waitFor('the subscription waiting', async () => {
      const now = await currentDetails(handle).catch(() => '');
      return now.includes('Waiting') ? now : undefined;
    });
    expect(details).toBe(`Subscription ${subscription.id} for ${customerId} — EUR 10.00 monthly\n\nWaiting until ${formatDateTime(new Date(subscription.next_billing_at ?? startsAt))} to bill cycle 1`);
    expect(await scheduled(handle)).toEqual([{ activity: 'loadSubscription', summary: `Load ${subscription.id}` }]);
  });

  it('an invoice in dunning says when it is charged again, which attempt of how many', async () => {
    const m = merchant(platform);
    const customerId = await m.customer();
    await m.setDefaultInstrument(customerId, await m.card(customerId, '4000000000009995'));
    const invoice = await m.openInvoice(customerId, { collection_method: 'CHARGE_AUTOMATICALLY' });
    const handle = platform.env.client.workflow.getHandle(invoiceCollectionWorkflowId(invoice.id));
    const details = await waitFor('the collection waiting', async () => {
      const now = await currentDetails(handle).catch(() => '');
      return now.startsWith('Waiting') ? now : undefined;
    });
    expect(details).toMatch(new RegExp(`^Waiting until \\d{4}-\\d\\d-\\d\\dT[\\d:.]{15}Z to charge ${invoice.id} again, attempt 2 of \\d+$`));
    const [, attempts] = details.match(/attempt 2 of (\d+)$/)!;
    expect(await scheduled(handle)).toEqual([
      { activity: 'planInvoiceCollection', summary: `Plan the collection of ${invoice.id}` },
      { activity: 'attemptInvoiceCollection', summary: `Charge ${invoice.id}, attempt 1 of ${attempts}` },
    ]);
  });
});

describe('activity summaries', () => {
  it('settlement: the day opened and each batch of settlements', async () => {
    const handle = await start('settlementWorkflow', [{ day: '2026-11-01' }]);
    await handle.result();
    expect(await scheduled(handle)).toEqual([
      { activity: 'settleStripePayouts', summary: 'Settle the Stripe payouts arriving in the week up to 2026-11-01: the first 50 connected accounts' },
      { activity: 'openSettlementDay', summary: 'Open 2026-11-01: a settlement per provider, legal entity and currency' },
      { activity: 'buildSettlementBatch', summary: 'Build the files of 2026-11-01: the first 100 settlements' },
    ]);
  });

  it('monthly statements: the month opened and each batch of statements', async () => {
    const handle = await start('monthlyStatementWorkflow', [{ month: '2026-10', batchSize: 25 }]);
    await handle.result();
    expect(await scheduled(handle)).toEqual([
      { activity: 'openMonthlyStatements', summary: 'Open 2026-10: record a statement per provider, legal entity and currency' },
      { activity: 'uploadMonthlyStatementBatch', summary: 'Upload the statements of 2026-10: the first 25 statements' },
    ]);
  });

  it('card expiry: the instrument and the moment it stops being chargeable', async () => {
    const expiresAt = new Date((await platform.env.currentTimeMs()) + HOUR);
    const handle = await start('paymentInstrumentExpiryWorkflow', [{ paymentInstrumentId: 'pi_summarised', expiresAt: expiresAt.toISOString() }]);
    expect(await currentDetails(handle)).toBe(`Waiting until ${formatDateTime(expiresAt)} to expire payment instrument pi_summarised`);
    await handle.result();
    expect(await scheduled(handle)).toEqual([
      { activity: 'expirePaymentInstrument', summary: `Expire payment instrument pi_summarised: its card stops being chargeable at ${formatDateTime(expiresAt)}` },
    ]);
  });

  it('secret rotation: the secret revoked, whose, and after which period', async () => {
    const overlap = { demotedSecretRecordId: 'sec_demoted', expiresAt: new Date((await platform.env.currentTimeMs()) + 60_000).toISOString(), rotationPeriodSeconds: 60 };
    const apiKey = await start('apiKeyRotationWorkflow', [{ apiKeyId: 'akey_summarised', ...overlap }]);
    expect(await currentDetails(apiKey)).toMatch(/^Waiting until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z to revoke the previous secret sec_demoted of akey_summarised$/);
    const endpoint = await start('webhookKeyRotationWorkflow', [{ endpointId: 'whep_summarised', ...overlap }]);
    await apiKey.result();
    await endpoint.result();
    expect(await scheduled(apiKey)).toEqual([
      { activity: 'endSecretOverlap', summary: 'Revoke the previous secret sec_demoted of akey_summarised: the rotation period of 60 s is over' },
    ]);
    expect(await scheduled(endpoint)).toEqual([
      { activity: 'endSecretOverlap', summary: 'Revoke the previous secret sec_demoted of whep_summarised: the rotation period of 60 s is over' },
    ]);
  });
});

describe('continued-as-new runs', () => {
  // Both chains at once: awaiting a first run lets the test server skip time, and a second such
  // wait after a chain was terminated was seen to hang.
  it('maintenance: every activity summarised; the next run has no static summary of its own and states it in its details', async () => {
    const purgeSummary = idempotencyPurgeSummary(60);
    const sweepSummary = paymentSweepSummary(5);
    const purge = await start('idempotencyPurgeWorkflow', [{ intervalMinutes: 60, runsPerExecution: 1 }], purgeSummary);
    const sweep = await start('paymentSweepWorkflow', [{ intervalMinutes: 5, batchSize: 7, runsPerExecution: 1 }], sweepSummary);
    const [nextPurge, nextSweep] = await Promise.all([continuedRun(purge), continuedRun(sweep)]);

    const purgeRun = 'purge 1 of 1 before this run continues as new';
    expect(await scheduled(await firstRun(purge))).toEqual([
      { activity: 'purgeExpiredIdempotencyRecords', summary: `Delete idempotency records past their 24 hours (${purgeRun})` },
      { activity: 'purgeExpiredV1RestoreRequests', summary: `Delete the v1 restore answers of rotated-out secrets (${purgeRun})` },
      {
        activity: 'purgeExpiredSignInRecords',
        summary: `Delete dashboard sign-in counts whose window is over and clients past the known-client period (${purgeRun})`,
      },
    ]);
    expect(await scheduled(await firstRun(sweep))).toEqual([
      { activity: 'sweepAbandonedPayments', summary: 'Finish up to 7 abandoned pays and refunds (sweep 1 of 1 before this run continues as new)' },
    ]);

    expect(await (await (await firstRun(purge)).describe()).staticSummary()).toBe(purgeSummary);
    // Temporal starts a continued run from the continue-as-new command, which carries no user metadata.
    expect(await (await nextPurge.describe()).staticSummary()).toBeUndefined();
    expect(await currentDetails(nextPurge)).toMatch(new RegExp(`^${purgeSummary}\\n\\n(Running|Waiting until .* after) ${purgeRun}$`));
    expect(await currentDetails(nextSweep)).toMatch(new RegExp(`^${sweepSummary}\\n\\n`));
    await purge.terminate();
    await sweep.terminate();
  });
});

describe('replaying histories recorded before the summaries', () => {
  // Recorded with the workflows as they were before this change (no summaries, no details): a
  // summary is user metadata, not part of the command, so a run in flight goes on replaying.
  const dir = join(__dirname, 'histories');
  it.each(readdirSync(dir).filter((file) => file.endsWith('-before-summaries.json')))('%s', async (file) => {
    const history = temporal.api.history.v1.History.fromObject(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    const events = history.events.filter((event) => event.activityTaskScheduledEventAttributes);
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((event) => !event.userMetadata)).toBe(true);
    await expect(Worker.runReplayHistory({ workflowBundle: { codePath: process.env.TEST_WORKFLOW_BUNDLE! } }, history)).resolves.toBeUndefined();
  });
});
