/** What a monthly statement run shows in the Temporal UI (docs/operators.md, "Summaries"). */

/** "Issue the statements of 2026-10 for every account". */
export function monthlyStatementSummary(month: string): string {
  return `Issue the statements of ${month} for every account`;
}

/** "12 statements to upload; uploaded up to stmt_…". */
export function monthlyStatementProgress(progress: { after: string | null; uploaded: number }): string {
  return `${progress.uploaded} statements to upload; ${progress.after === null ? 'none uploaded yet' : `uploaded up to ${progress.after}`}`;
}
