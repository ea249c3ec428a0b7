/**
 * How many workflow executions the worker keeps in memory between their tasks (Temporal's
 * sticky cache, `maxCachedWorkflows`). The SDK's default grows with the heap limit (about 2,300
 * on a machine with a 4 GiB heap limit), and nearly all the platform's workflows wait weeks
 * between tasks (a subscription's next cycle, a card's expiry, a report's expiry), so at rest the
 * cache held every one of them, a few hundred KiB each. One evicted from the cache replays its
 * (continue-as-new bounded) history at its next task instead: milliseconds, once a cycle.
 */
export const DEFAULT_MAX_CACHED_WORKFLOWS = 250;

export function maxCachedWorkflowsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.WORKER_MAX_CACHED_WORKFLOWS;
  if (raw === undefined || raw === '') return DEFAULT_MAX_CACHED_WORKFLOWS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`WORKER_MAX_CACHED_WORKFLOWS must be a whole number (0 turns the cache off), not ${JSON.stringify(raw)}.`);
  return value;
}
