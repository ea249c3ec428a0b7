import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How the API and the worker are run: `source`, their TypeScript through tsx (`npm run api`,
 * `npm run worker`), or `build`, the JavaScript `npm run build` wrote to dist/ (`npm run start:api`,
 * `npm run start:worker`), what production runs.
 */
export type EntryRuntime = 'source' | 'build';

/** The node arguments that start `program`: its entry point, preceded by tsx's loader from source. */
export function entryArgs(root: string, program: 'api' | 'worker', runtime: EntryRuntime): string[] {
  if (runtime === 'source') return ['--import', 'tsx', join(root, program, 'main.ts')];
  const built = join(root, 'dist', program, 'main.js');
  if (!existsSync(built)) throw new Error(`${built} is missing: run \`npm run build\` first.`);
  return [built];
}
