import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { seriousAxeViolations, type AxeViolation } from '../support/browser';

/** Where the browser tests leave each page's screenshot and the axe results (gitignored). */
export const ARTIFACTS_DIR = join(__dirname, '..', '..', 'test-artifacts', 'dashboard');

export const axeResults: Record<string, { serious: number; violations: string[] }> = {};

/**
 * Every page the tests open goes through here: a full-page screenshot kept as an artifact and
 * axe-core's serious and critical violations, which must be none.
 */
export async function checkPage(page: Page, name: string): Promise<AxeViolation[]> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(ARTIFACTS_DIR, `${name}.png`), fullPage: true });
  const violations = await seriousAxeViolations(page);
  axeResults[name] = { serious: violations.length, violations: violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`) };
  writeFileSync(join(ARTIFACTS_DIR, 'axe-results.json'), `${JSON.stringify(axeResults, null, 2)}\n`);
  return violations;
}
