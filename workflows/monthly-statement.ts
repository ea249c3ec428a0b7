import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { previousUtcMonth } from '../domain/settlement-dates';
import { scheduledTime } from './settlement-scheduled-time';

const { planMonthlyStatements, uploadMonthlyStatement } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

const UPLOAD_CONCURRENCY = 8;

export interface MonthlyStatementInput {
  /** The month covered, `YYYY-MM`; by default the month before the scheduled time. */
  month?: string;
}

export interface MonthlyStatementResult {
  month: string;
  uploaded: number;
}

/**
 * Issues the statements of one month (docs/monthly-statements.md): one per provider, legal
 * entity and currency with activity, each recorded first, then its file stored and
 * `uploaded_at` set. Started on the 1st of each month by its Schedule; a rerun uploads only
 * what is missing.
 */
export async function monthlyStatementWorkflow(input: MonthlyStatementInput = {}): Promise<MonthlyStatementResult> {
  const month = input.month ?? previousUtcMonth(scheduledTime());
  const { statementIds } = await planMonthlyStatements({ month });
  for (let next = 0; next < statementIds.length; next += UPLOAD_CONCURRENCY) {
    await Promise.all(statementIds.slice(next, next + UPLOAD_CONCURRENCY).map((statementId) => uploadMonthlyStatement({ statementId })));
  }
  return { month, uploaded: statementIds.length };
}
