import { ScheduleAlreadyRunning, ScheduleOverlapPolicy, type Client, type ScheduleOptions, type ScheduleOptionsStartWorkflowAction } from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { MONTHLY_STATEMENT_SCHEDULE_ID, SETTLEMENT_SCHEDULE_ID, TASK_QUEUE } from '../../domain/workflow-ids';
import { searchAttributesOf } from '../../domain/workflow-search-attributes';
import type { monthlyStatementWorkflow } from '../../workflows/monthly-statement';
import type { settlementWorkflow } from '../../workflows/settlement';

/**
 * The Schedules of the provider money flows (docs/settlements.md, docs/monthly-statements.md).
 * Every run is buffered (none is skipped while another still runs) and one missed during an
 * outage is still taken within the catch-up window; each run derives its day or month from the
 * time it was due, so a late run covers the right period.
 */
export const SETTLEMENT_SCHEDULE: ScheduleOptions<ScheduleOptionsStartWorkflowAction<typeof settlementWorkflow>> = {
  scheduleId: SETTLEMENT_SCHEDULE_ID,
  spec: { calendars: [{ hour: 2, minute: 0, comment: 'Daily at 02:00 UTC: settle the previous UTC day' }] },
  action: {
    type: 'startWorkflow',
    workflowType: 'settlementWorkflow',
    taskQueue: TASK_QUEUE,
    workflowId: SETTLEMENT_SCHEDULE_ID,
    args: [{}],
    // Every account's settlements at once: ResourceId names the Schedule (docs/operators.md).
    typedSearchAttributes: searchAttributesOf({ resourceId: SETTLEMENT_SCHEDULE_ID }),
    staticSummary: "Settle the previous UTC day's payments of every account",
  },
  policies: { overlap: ScheduleOverlapPolicy.BUFFER_ALL, catchupWindow: '7 days' },
};

export const MONTHLY_STATEMENT_SCHEDULE: ScheduleOptions<ScheduleOptionsStartWorkflowAction<typeof monthlyStatementWorkflow>> = {
  scheduleId: MONTHLY_STATEMENT_SCHEDULE_ID,
  spec: { calendars: [{ dayOfMonth: 1, hour: 4, minute: 0, comment: 'The 1st at 04:00 UTC: statements of the previous month' }] },
  action: {
    type: 'startWorkflow',
    workflowType: 'monthlyStatementWorkflow',
    taskQueue: TASK_QUEUE,
    workflowId: MONTHLY_STATEMENT_SCHEDULE_ID,
    args: [{}],
    typedSearchAttributes: searchAttributesOf({ resourceId: MONTHLY_STATEMENT_SCHEDULE_ID }),
    staticSummary: "Build and upload the previous month's statements of every account",
  },
  policies: { overlap: ScheduleOverlapPolicy.BUFFER_ALL, catchupWindow: '31 days' },
};

/**
 * Creates both Schedules unless they exist: every worker start calls this. An existing
 * Schedule is left as it is, so an operator's pause or edit survives restarts.
 */
export async function ensureSettlementSchedules(client: Client): Promise<void> {
  await createUnlessExists(client, SETTLEMENT_SCHEDULE);
  await createUnlessExists(client, MONTHLY_STATEMENT_SCHEDULE);
}

async function createUnlessExists<W extends Workflow>(client: Client, schedule: ScheduleOptions<ScheduleOptionsStartWorkflowAction<W>>): Promise<void> {
  try {
    await client.schedule.create<W>(schedule);
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
  }
}
