import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The per-operation 422 codes of the spec's section 4, kept in the project as a fixture
 * (test/api-reference/fixtures/spec-section-4-error-codes.json) so the tests need no copy of the
 * spec beside the checkout. Run again when the spec changes:
 *
 *   node --import tsx scripts/spec/section-4-error-codes.ts [path/to/billing-api-v2.md]
 *
 * The spec defaults to ../shared/spec/billing-api-v2.md beside the checkout.
 */

export const SPEC_FILE = 'billing-api-v2.md';
export const FIXTURE = path.join(__dirname, '../../test/api-reference/fixtures/spec-section-4-error-codes.json');

export interface SectionFourErrorCodes {
  source: string;
  generated_by: string;
  /** `/v2/{resources}/{action}` → the codes after "422" on its Errors line, in the spec's order. */
  operations: Record<string, string[]>;
}

/**
 * Section 4's "Errors:" lines, by operation: a subsection's paths are those of its heading, or
 * without one every `/resources/action` it names (4.3 names customers/update and customers/patch);
 * the codes are the backticked ones after "422" on its Errors line.
 */
export function sectionFourErrorCodes(spec: string): Record<string, string[]> {
  const endpoints = /^# 4\. [^\n]*\n([\s\S]*?)(?=^# \d)/m.exec(spec)?.[1];
  if (!endpoints) throw new Error('No section "# 4." in the spec.');
  const errors: Record<string, string[]> = {};
  for (const section of endpoints.split(/^## /m).slice(1)) {
    const errorsLine = /Errors:(.*)$/m.exec(section)?.[1];
    if (!errorsLine) continue;
    const heading = section.split('\n')[0]!;
    const named = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].map((match) => match[1]!);
    const inHeading = named(heading, /(\/[a-z-]+\/[a-z-]+)/g);
    const paths = inHeading.length > 0 ? inHeading : named(section.slice(0, section.indexOf('Errors:')), /`(\/[a-z-]+\/[a-z-]+)`/g);
    const after422 = errorsLine.slice(errorsLine.indexOf('422') + 3);
    const codes = errorsLine.includes('422') ? [...after422.split(/;\s*\d{3}\b|\)\s*,\s*\d{3}\b/)[0]!.matchAll(/`([A-Z_]+)`/g)].map((match) => match[1]!) : [];
    for (const operation of paths) errors[`/v2${operation}`] = codes;
  }
  return Object.fromEntries(Object.entries(errors).sort(([a], [b]) => a.localeCompare(b)));
}

if (require.main === module) {
  const specPath = path.resolve(process.argv[2] ?? path.join(__dirname, '../../../shared/spec', SPEC_FILE));
  if (!existsSync(specPath)) {
    console.error(`No spec at ${specPath}: name it as the first argument.`);
    process.exit(1);
  }
  const fixture: SectionFourErrorCodes = {
    source: `${SPEC_FILE}, section 4 (Endpoints): the codes after "422" on each subsection's "Errors:" line`,
    generated_by: 'node --import tsx scripts/spec/section-4-error-codes.ts',
    operations: sectionFourErrorCodes(readFileSync(specPath, 'utf8')),
  };
  writeFileSync(FIXTURE, `${JSON.stringify(fixture, null, 2)}\n`);
  console.log(`${path.relative(process.cwd(), FIXTURE)}: ${Object.keys(fixture.operations).length} operations from ${specPath}`);
}
