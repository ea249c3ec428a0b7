import { ActivityFailure, ApplicationFailure, continueAsNew, log, patched, proxyActivities, rootCause, setCurrentDetails, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import type { SettlementBatchInput, SettlementBatchResult } from '../activities/settlements';
import type { StripePayoutBatchInput } from '../activities/stripe-settlements';
import { BATCHES_PER_RUN, describeBatch, RECORDS_PER_BATCH } from '../domain/settlement-batches';
import { previousUtcDay } from '../domain/settlement-dates';
import type { SettlementFileType } from '../domain/settlement-files';
import { STRIPE_ACCOUNTS_PER_BATCH } from '../domain/stripe-payouts';
import { settlementDaySummary, settlementProgress } from '../domain/settlement-summaries';
import { runDetails } from '../domain/workflow-details';
import { scheduledTime } from './settlement-scheduled-time';

const { openSettlementDay, failSettlementBatch, settleDay, failSettlementFile } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/**
 * A batch that still fails after these attempts has its unbuilt files marked FAILED; a later
 * run of the day retries them. A heartbeat after every file: a stuck file ends the attempt.
 */
const { buildSettlementBatch } = proxyActivities<Activities>({
  startToCloseTimeout: '4 hours',
  heartbeatTimeout: '30 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 5 },
});

/**
 * Stripe's books, read for a batch of connected accounts: a batch still failing after these
 * attempts ends the reading for this run, whose later runs' windows still hold the payouts.
 */
const { settleStripePayouts } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '5 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 5 },
});

/** Runs started before batches: one activity per file, up to 5 attempts each. */
const { buildSettlementFile } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 5 },
});

/** Runs started before batches: files built at once. */
const FILE_CONCURRENCY = 8;

/** Marks the histories that settle in batches; runs recorded without it replay file by file. */
export const SETTLEMENT_BATCHES_PATCH = 'settlement-batches';

/** Marks the histories that read Stripe's payouts before opening the day; runs recorded without it open the day at once. */
export const STRIPE_PAYOUTS_PATCH = 'stripe-payouts';

export interface SettlementInput {
  /** The UTC day whose transactions are settled, `YYYY-MM-DD`; by default the day before the scheduled time. */
  day?: string;
  /** Settlements per batch activity (1 to 1,000); default 100. */
  batchSize?: number;
  /** Batches before the run continues as new; default 50. */
  batchesPerRun?: number;
  /** Where the previous run of this settlement stopped; set by continue-as-new only. */
  progress?: SettlementProgress;
}

export interface SettlementProgress {
  /** When the day was opened; a file whose status changed since was built or failed by this settlement. */
  since: string;
  /** The last settlement of the last batch done. */
  after: string | null;
  result: SettlementResult;
}

export interface SettlementResult {
  day: string;
  /** Settlements whose files this run built or failed. */
  settlements: number;
  filesSucceeded: number;
  filesFailed: number;
  /** Provider lines no legal entity receives (docs/settlements.md). */
  unassignedLines: number;
}

/**
 * Settles one UTC day (docs/settlements.md): one settlement per provider, legal entity and
 * currency, and one per Stripe payout arrived in the week up to the day, then its SETTLEMENT and
 * FINANCIAL_ENTRIES files, each PROCESSING until it is stored (SUCCEEDED) or has failed every
 * attempt (FAILED). Started daily by the settlement Schedule; running it again for a day is
 * harmless and rebuilds only the files that did not succeed.
 *
 * The files are built in batches of settlements after a cursor, and the run continues as new
 * after `batchesPerRun` of them, so a run's history is bounded whatever the day holds.
 */
export async function settlementWorkflow(input: SettlementInput = {}): Promise<SettlementResult> {
  const day = input.day ?? previousUtcDay(scheduledTime());
  if (!patched(SETTLEMENT_BATCHES_PATCH)) return settleFileByFile(day);
  const limit = input.batchSize ?? RECORDS_PER_BATCH;
  const batchesPerRun = Math.max(1, input.batchesPerRun ?? BATCHES_PER_RUN);
  const summary = settlementDaySummary(day);
  setCurrentDetails(runDetails(summary, 'Opening the day'));
  let progress: SettlementProgress = input.progress ?? (await opened(day));
  for (let batches = 0; ; batches++) {
    setCurrentDetails(runDetails(summary, settlementProgress(progress.result)));
    if (batches >= batchesPerRun || workflowInfo().continueAsNewSuggested) {
      return continueAsNew<typeof settlementWorkflow>({ day, batchSize: limit, batchesPerRun, progress });
    }
    const batch: SettlementBatchInput = { day, after: progress.after, limit, since: progress.since };
    let done: SettlementBatchResult;
    try {
      done = await buildSettlementBatch.executeWithOptions({ summary: `Build the files of ${day}: ${describeBatch(batch, 'settlements')}` }, [batch]);
    } catch (error) {
      done = await failSettlementBatch.executeWithOptions({ summary: `Mark FAILED the unbuilt files of ${day}: ${describeBatch(batch, 'settlements')}` }, [
        { ...batch, reason: failureReason(error) },
      ]);
    }
    const { result } = progress;
    progress = {
      since: progress.since,
      after: done.last ?? progress.after,
      result: { ...result, filesSucceeded: result.filesSucceeded + done.filesSucceeded, filesFailed: result.filesFailed + done.filesFailed },
    };
    if (done.complete) return progress.result;
  }
}

async function opened(day: string): Promise<SettlementProgress> {
  // Before the day is opened, so that it counts the payouts' settlements among those to build.
  const payoutLines = patched(STRIPE_PAYOUTS_PATCH) ? await settledStripePayouts(day) : 0;
  const { since, settlements, unassignedLines } = await openSettlementDay.executeWithOptions(
    { summary: `Open ${day}: a settlement per provider, legal entity and currency` },
    [{ day }],
  );
  return { since, after: null, result: { day, settlements, filesSucceeded: 0, filesFailed: 0, unassignedLines: unassignedLines + payoutLines } };
}

/** Reads the Stripe payouts of every connected account, a batch at a time; returns their unassigned lines. */
async function settledStripePayouts(day: string): Promise<number> {
  let unassignedLines = 0;
  let after: string | null = null;
  for (;;) {
    const batch: StripePayoutBatchInput = { day, after, limit: STRIPE_ACCOUNTS_PER_BATCH };
    try {
      const done = await settleStripePayouts.executeWithOptions(
        { summary: `Settle the Stripe payouts arriving in the week up to ${day}: ${describeBatch(batch, 'connected accounts')}` },
        [batch],
      );
      unassignedLines += done.unassignedLines;
      if (done.complete) return unassignedLines;
      after = done.last;
    } catch (error) {
      log.warn('Stripe payouts not read: left to the next runs', { day, after, reason: failureReason(error) });
      return unassignedLines;
    }
  }
}

/** Why an activity failed for good, its failure type first when there is one; anything else fails the workflow task. */
function failureReason(error: unknown): string {
  if (!(error instanceof ActivityFailure)) throw error;
  const cause = rootCause(error);
  return error.cause instanceof ApplicationFailure && error.cause.type ? `${error.cause.type}: ${cause}` : String(cause);
}

/**
 * The run as it was before batches, kept so histories recorded by it replay: every settlement
 * of the day in one answer, an activity per file. History grows with the day's settlements.
 */
async function settleFileByFile(day: string): Promise<SettlementResult> {
  const { settlements, unassigned } = await settleDay.executeWithOptions({ summary: `Open ${day}: a settlement per provider, legal entity and currency` }, [{ day }]);
  const files = settlements.flatMap(({ settlementId, files }) => files.map((type) => ({ settlementId, type })));
  let filesSucceeded = 0;
  let filesFailed = 0;

  async function build(file: { settlementId: string; type: SettlementFileType }): Promise<void> {
    try {
      await buildSettlementFile.executeWithOptions({ summary: `Build the ${file.type} file of ${file.settlementId} (${day})` }, [file]);
      filesSucceeded += 1;
    } catch (error) {
      await failSettlementFile.executeWithOptions({ summary: `Mark the ${file.type} file of ${file.settlementId} (${day}) FAILED` }, [
        { ...file, reason: failureReason(error) },
      ]);
      filesFailed += 1;
    }
  }

  for (let next = 0; next < files.length; next += FILE_CONCURRENCY) {
    await Promise.all(files.slice(next, next + FILE_CONCURRENCY).map(build));
  }
  return {
    day,
    settlements: settlements.length,
    filesSucceeded,
    filesFailed,
    unassignedLines: unassigned.reduce((sum, group) => sum + group.lines, 0),
  };
}
