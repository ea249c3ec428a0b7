/**
 * How settlement and monthly-statement runs split a day or month (docs/settlements.md, "The
 * Schedule and the workflow"): an activity takes the next batch of records after a cursor, so
 * a run's history grows with batches, never with records, and a run continues as new after a
 * number of batches, so no history grows without bound whatever the day holds.
 */

/** Settlements or statements per batch activity: a few minutes of files at most. */
export const RECORDS_PER_BATCH = 100;

/** The most a caller may ask of one batch: bounds what one activity holds and reports. */
export const MAX_RECORDS_PER_BATCH = 1_000;

/** Batches per run before it continues as new: a few hundred history events per run. */
export const BATCHES_PER_RUN = 50;

/** Records of a day or month handled at once inside a batch: the load put on the database. */
export const BATCH_CONCURRENCY = 8;

/** What a batch activity takes: the records with an id after `after`, at most `limit` of them. */
export interface BatchCursor {
  /** The last id of the previous batch; null for the first batch. */
  after: string | null;
  limit: number;
}

export function isBatchLimit(limit: number): boolean {
  return Number.isInteger(limit) && limit >= 1 && limit <= MAX_RECORDS_PER_BATCH;
}

/** Rows written per statement: keeps a day or month of any size under PostgreSQL's bind-parameter limit. */
export const WRITE_CHUNK = 1_000;

export function inChunks<T>(items: readonly T[], size = WRITE_CHUNK): T[][] {
  const chunks: T[][] = [];
  for (let next = 0; next < items.length; next += size) chunks.push(items.slice(next, next + size));
  return chunks;
}

/**
 * Calls `each` on every item, at most `BATCH_CONCURRENCY` at once. Every item is tried even when
 * some fail, and nothing is left running when it returns; then the first failure is thrown, so
 * a retry of the batch finds every item done or not, never one still under way.
 */
export async function forEachConcurrently<T>(items: readonly T[], each: (item: T) => Promise<void>): Promise<void> {
  const failures: unknown[] = [];
  let next = 0;
  async function worker(): Promise<void> {
    while (next < items.length) {
      const item = items[next++]!;
      await each(item).catch((error: unknown) => failures.push(error));
    }
  }
  await Promise.all(Array.from({ length: Math.min(BATCH_CONCURRENCY, items.length) }, worker));
  if (failures.length > 0) throw failures[0];
}

/** "the first 100 settlements", "up to 100 settlements after stl_…": a batch as its activity's summary names it. */
export function describeBatch({ after, limit }: BatchCursor, records: string): string {
  return after === null ? `the first ${limit} ${records}` : `up to ${limit} ${records} after ${after}`;
}
