import { ActivityFailure, ApplicationFailure, proxyActivities, rootCause } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { previousUtcDay } from '../domain/settlement-dates';
import type { SettlementFileType } from '../domain/settlement-files';
import { scheduledTime } from './settlement-scheduled-time';

const { settleDay, failSettlementFile } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
});

/** A file that still fails after these attempts is marked FAILED; a later run of the day retries it. */
const { buildSettlementFile } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '2 minutes', maximumAttempts: 5 },
});

/** Files built at once: bounds the load a day with many legal entities puts on the database. */
const FILE_CONCURRENCY = 8;

export interface SettlementInput {
  /** The UTC day whose transactions are settled, `YYYY-MM-DD`; by default the day before the scheduled time. */
  day?: string;
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
 * currency, then its SETTLEMENT and FINANCIAL_ENTRIES files, each PROCESSING until it is stored
 * (SUCCEEDED) or has failed every attempt (FAILED). Started daily by the settlement Schedule;
 * running it again for a day is harmless and rebuilds only the files that did not succeed.
 *
 * History grows with the settlements of the day (about four events per file); the run ends
 * when they are done, so no continue-as-new is needed.
 */
export async function settlementWorkflow(input: SettlementInput = {}): Promise<SettlementResult> {
  const day = input.day ?? previousUtcDay(scheduledTime());
  const { settlements, unassigned } = await settleDay({ day });
  const files = settlements.flatMap(({ settlementId, files }) => files.map((type) => ({ settlementId, type })));
  let filesSucceeded = 0;
  let filesFailed = 0;

  async function build(file: { settlementId: string; type: SettlementFileType }): Promise<void> {
    try {
      await buildSettlementFile(file);
      filesSucceeded += 1;
    } catch (error) {
      if (!(error instanceof ActivityFailure)) throw error;
      const cause = rootCause(error);
      const reason = error.cause instanceof ApplicationFailure && error.cause.type ? `${error.cause.type}: ${cause}` : String(cause);
      await failSettlementFile({ ...file, reason });
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
