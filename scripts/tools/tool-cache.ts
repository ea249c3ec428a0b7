import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import path from 'node:path';

/**
 * Where the tools the project builds or installs for itself are kept (the Go binaries, the
 * schemathesis environment, the Temporal test server's classpath and class archive): outside the
 * checkout, as npm's, Go's and Maven's own caches are, so a fresh clone on a machine that built
 * them before (CI runs on a clean clone) starts from them instead of rebuilding them, about a
 * minute and a half here. `BILLING_TOOLS_CACHE` overrides it. Nothing outside the checkout is
 * needed: a missing entry is built again from the registries.
 */
export const TOOLS_CACHE =
  process.env.BILLING_TOOLS_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'billing-platform', 'tools');

/**
 * The directory of one tool, named by a hash of the pins it is built from: checkouts pinning
 * different versions never share an entry, and a bumped pin builds a new one.
 */
export function toolDir(kind: string, pins: readonly string[]): string {
  return path.join(TOOLS_CACHE, kind, createHash('sha256').update(pins.join('\n')).digest('hex').slice(0, 16));
}
