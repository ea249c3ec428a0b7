/** What a settlement run shows in the Temporal UI (docs/operators.md, "Summaries"). */

/** "Settle 2026-11-23: the UTC day's payments of every account". */
export function settlementDaySummary(day: string): string {
  return `Settle ${day}: the UTC day's payments of every account`;
}

/** "4 settlements, 2 unassigned lines; files so far: 6 built, 1 failed". */
export function settlementProgress(result: { settlements: number; unassignedLines: number; filesSucceeded: number; filesFailed: number }): string {
  return `${result.settlements} settlements, ${result.unassignedLines} unassigned lines; files so far: ${result.filesSucceeded} built, ${result.filesFailed} failed`;
}
