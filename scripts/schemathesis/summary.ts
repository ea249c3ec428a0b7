/** What one schemathesis run counted, read from its text output (it writes no report file of counts). */
export interface SchemathesisSummary {
  exitCode: number;
  generated: number;
  passed: number;
  failed: number;
  skipped: number;
  operationsTested: number;
}

function count(output: string, pattern: RegExp): number {
  const match = pattern.exec(output);
  return match ? Number(match[1]) : 0;
}

export function schemathesisSummary(output: string, exitCode: number): SchemathesisSummary {
  const cases = /Test cases:\s*\n\s*([^\n]+)/.exec(output)?.[1] ?? '';
  return {
    exitCode,
    generated: count(cases, /(\d+) generated/),
    passed: count(cases, /(\d+) passed/),
    // A run with failures says "17153 generated, 1 found 1 unique failure": the cases that failed.
    failed: count(cases, /(\d+) failed/) || count(cases, /(\d+) found \d+ unique failures?/),
    skipped: count(cases, /(\d+) skipped/),
    operationsTested: count(output, /Tested:\s*(\d+)/),
  };
}

/** The SUMMARY block without schemathesis' closing pytest-style "== … in N s ==" line. */
export function summarySection(output: string): string {
  const start = output.search(/=+ SUMMARY =+/);
  const section = start < 0 ? output : output.slice(start);
  return section
    .split('\n')
    .filter((line) => !/^=+ .* in [\d.]+s =+$/.test(line.trim()))
    .join('\n')
    .trimEnd();
}
