/** The static summaries of the platform's housekeeping workflows, also stated by every run they continue as new into. */

/** "hourly", "every 5 minutes", "every minute". */
function every(minutes: number): string {
  if (minutes === 60) return 'hourly';
  if (minutes === 1) return 'every minute';
  return minutes % 60 === 0 ? `every ${minutes / 60} hours` : `every ${minutes} minutes`;
}

export function idempotencyPurgeSummary(intervalMinutes: number): string {
  return `Purge expired idempotency records and v1 restore answers of rotated-out secrets ${every(intervalMinutes)}`;
}

export function paymentSweepSummary(intervalMinutes: number): string {
  return `Finish abandoned manual pays and refunds ${every(intervalMinutes)}`;
}

export function retentionSummary(intervalMinutes: number): string {
  return `Delete rows of the growing tables past their retention, in batches, ${every(intervalMinutes)} (docs/retention.md)`;
}

export function metricsRollupSummary(intervalMinutes: number): string {
  return `Fold the day changes of payments and refunds into the overview's daily roll-up ${every(intervalMinutes)} (docs/metrics.md)`;
}
