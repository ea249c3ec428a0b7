import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import { workflowInfo } from '@temporalio/workflow';

/** Set by a Temporal Schedule on each workflow it starts: the time the action was due. */
const SCHEDULED_START_TIME = defineSearchAttributeKey('TemporalScheduledStartTime', SearchAttributeType.DATETIME);

/**
 * When the run was due: the schedule's nominal time when a Schedule started it (a run caught up
 * late still covers the period it was due for), else the workflow's own start.
 */
export function scheduledTime(): Date {
  return workflowInfo().typedSearchAttributes.get(SCHEDULED_START_TIME) ?? workflowInfo().startTime;
}
