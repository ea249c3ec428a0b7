import { z } from 'zod';
import type { Quota } from './token-bucket';

/**
 * Default quotas per API key and operation. Creating and rotating keys is rarer and more
 * sensitive than reading, so it gets a smaller bucket. `RATE_LIMITS` (JSON) overrides any
 * entry, with `*` as the default for operations not listed.
 */
const DEFAULTS: Record<string, Quota> = {
  '*': { ratePerSecond: 100, burst: 200 },
  'api-keys:create': { ratePerSecond: 1, burst: 10 },
  'api-keys:rotate': { ratePerSecond: 1, burst: 10 },
};

const quotaSchema = z.object({ ratePerSecond: z.number().positive(), burst: z.number().min(1) });
const overridesSchema = z.record(z.string(), quotaSchema);

export function quotaTable(overridesJson: string | undefined): (operation: string) => Quota {
  const table = { ...DEFAULTS, ...(overridesJson ? overridesSchema.parse(JSON.parse(overridesJson)) : {}) };
  const fallback = table['*']!;
  return (operation) => table[operation] ?? fallback;
}
