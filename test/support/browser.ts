import { readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, installed by scripts/browser/ensure-chromium.sh (run by `npm test`). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
  // --no-sandbox: the tests run as root on CI machines, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
}

export interface AxeViolation {
  id: string;
  impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
  help: string;
  nodes: { target: string[] }[];
}

const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The page's serious and critical accessibility violations, as axe-core reports them. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ content: axeSource });
  // Runs inside the page, where `axe` and `document` are globals (the project compiles without DOM types).
  const violations = await page.evaluate(async () => {
    const inPage = globalThis as any;
    const result = await inPage.axe.run(inPage.document);
    return result.violations as AxeViolation[];
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
