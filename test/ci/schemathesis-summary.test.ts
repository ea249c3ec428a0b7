import { schemathesisSummary, summarySection } from '../../scripts/schemathesis/summary';

// The tail of a real run (CI, 2026-11-24), trimmed.
const PASSED = `Schema validation mismatch: 33 operations mostly rejected generated data due to validation errors
=================================== SUMMARY ====================================
API Operations:
  Selected: 71/71
  Tested: 71
Test Phases:
  ✅ Examples
  ✅ Coverage
  ✅ Fuzzing
  ⏭  Stateful (disabled)
Test cases:
  16127 generated, 16127 passed, 52 skipped
Seed: 265263
============================ 2 warnings in 101.99s =============================
`;

const FAILED = `=================================== SUMMARY ====================================
API Operations:
  Selected: 71/71
  Tested: 70
Test cases:
  9800 generated, 9796 failed, 4 passed
============================ 4 failures in 88.10s ==============================
`;

// The counts line of a run that found a failure (CI, 2026-11-24).
const FOUND = `Test cases:
  17153 generated, 1 found 1 unique failure, 142 skipped
`;

describe('the schemathesis step of npm test', () => {
  it('reads the failures of a run that found some', () => {
    expect(schemathesisSummary(FOUND, 1)).toMatchObject({ generated: 17153, failed: 1, passed: 0, skipped: 142 });
  });

  it('reads the counts of a passing run', () => {
    expect(schemathesisSummary(PASSED, 0)).toEqual({ exitCode: 0, generated: 16127, passed: 16127, failed: 0, skipped: 52, operationsTested: 71 });
  });

  it('reads the counts of a failing run', () => {
    expect(schemathesisSummary(FAILED, 1)).toMatchObject({ generated: 9800, passed: 4, failed: 9796, operationsTested: 70 });
  });

  it('prints the summary without the closing pytest-style line that reads as "no test ran"', () => {
    const printed = summarySection(PASSED);
    expect(printed.startsWith('=================================== SUMMARY')).toBe(true);
    expect(printed).toContain('16127 generated, 16127 passed');
    expect(printed).not.toMatch(/warnings in 101\.99s/);
    expect(printed).not.toContain('Schema validation mismatch: 33');
  });
});
