/** The one file of a monthly statement, in the `files` shape of settlements (docs/monthly-statements.md, "The file"). */
export const MONTHLY_STATEMENT_FILE_TYPES = ['MONTHLY_STATEMENT'] as const;

/** What the file downloads as: named by its statement, so two downloads never collide. */
export function monthlyStatementDownloadName(statementId: string): string {
  return `${statementId}-statement.csv`;
}
