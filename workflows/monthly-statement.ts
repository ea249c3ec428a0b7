import { continueAsNew, patched, proxyActivities, setCurrentDetails, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { monthlyStatementProgress, monthlyStatementSummary } from '../domain/monthly-statement-summaries';
import { BATCHES_PER_RUN, describeBatch, RECORDS_PER_BATCH } from '../domain/settlement-batches';
import { previousUtcMonth } from '../domain/settlement-dates';
import { runDetails } from '../domain/workflow-details';
import { scheduledTime } from './settlement-scheduled-time';

const { openMonthlyStatements, planMonthlyStatements, uploadMonthlyStatement } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/** A heartbeat after every statement: a stuck upload ends the attempt, which is retried. */
const { uploadMonthlyStatementBatch } = proxyActivities<Activities>({
  startToCloseTimeout: '4 hours',
  heartbeatTimeout: '30 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/** Runs started before batches: uploads at once. */
const UPLOAD_CONCURRENCY = 8;

/** Marks the histories that upload in batches; runs recorded without it replay one activity per statement. */
export const MONTHLY_STATEMENT_BATCHES_PATCH = 'monthly-statement-batches';

export interface MonthlyStatementInput {
  /** The month covered, `YYYY-MM`; by default the month before the scheduled time. */
  month?: string;
  /** Statements per batch activity (1 to 1,000); default 100. */
  batchSize?: number;
  /** Batches before the run continues as new; default 50. */
  batchesPerRun?: number;
  /** Where the previous run of this month stopped; set by continue-as-new only. */
  progress?: { after: string | null; uploaded: number };
}

export interface MonthlyStatementResult {
  month: string;
  /** Statements not uploaded yet when the month was opened: this run uploaded them. */
  uploaded: number;
}

/**
 * Issues the statements of one month (docs/monthly-statements.md): one per provider, legal
 * entity and currency with activity, each recorded first, then its file stored and
 * `uploaded_at` set. Started on the 1st of each month by its Schedule; a rerun uploads only
 * what is missing. Uploads go in batches of statements after a cursor and the run continues as
 * new after `batchesPerRun` of them, so a run's history is bounded whatever the month holds.
 */
export async function monthlyStatementWorkflow(input: MonthlyStatementInput = {}): Promise<MonthlyStatementResult> {
  const month = input.month ?? previousUtcMonth(scheduledTime());
  if (!patched(MONTHLY_STATEMENT_BATCHES_PATCH)) return uploadOneByOne(month);
  const limit = input.batchSize ?? RECORDS_PER_BATCH;
  const batchesPerRun = Math.max(1, input.batchesPerRun ?? BATCHES_PER_RUN);
  const summary = monthlyStatementSummary(month);
  setCurrentDetails(runDetails(summary, 'Opening the month'));
  let progress = input.progress ?? {
    after: null,
    uploaded: (await openMonthlyStatements.executeWithOptions({ summary: `Open ${month}: record a statement per provider, legal entity and currency` }, [{ month }]))
      .pending,
  };
  for (let batches = 0; ; batches++) {
    setCurrentDetails(runDetails(summary, monthlyStatementProgress(progress)));
    if (batches >= batchesPerRun || workflowInfo().continueAsNewSuggested) {
      return continueAsNew<typeof monthlyStatementWorkflow>({ month, batchSize: limit, batchesPerRun, progress });
    }
    const cursor = { after: progress.after, limit };
    const done = await uploadMonthlyStatementBatch.executeWithOptions({ summary: `Upload the statements of ${month}: ${describeBatch(cursor, 'statements')}` }, [
      { month, ...cursor },
    ]);
    progress = { ...progress, after: done.last ?? progress.after };
    if (done.complete) return { month, uploaded: progress.uploaded };
  }
}

/** The run as it was before batches, kept so histories recorded by it replay: history grows with the month's statements. */
async function uploadOneByOne(month: string): Promise<MonthlyStatementResult> {
  const { statementIds } = await planMonthlyStatements.executeWithOptions({ summary: `Open ${month}: record a statement per provider, legal entity and currency` }, [{ month }]);
  for (let next = 0; next < statementIds.length; next += UPLOAD_CONCURRENCY) {
    await Promise.all(
      statementIds
        .slice(next, next + UPLOAD_CONCURRENCY)
        .map((statementId) => uploadMonthlyStatement.executeWithOptions({ summary: `Upload statement ${statementId} of ${month}` }, [{ statementId }])),
    );
  }
  return { month, uploaded: statementIds.length };
}
