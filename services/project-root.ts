import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The nearest folder at or above `from` that holds a package.json. The sources run from
 * `<root>/api/…` and the build from `<root>/dist/api/…` (`npm run build`), one folder deeper,
 * while what they read beside the code (dashboard/dist, portal/dist, prisma/migrations, .data)
 * stays at the root for both: a path counted in `..` from `__dirname` is right for one of them only.
 */
export function projectRootOf(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json at or above ${from}.`);
  }
}

export const PROJECT_ROOT = projectRootOf(__dirname);
