const BATCH = 5_000;

/** What one batch did: the rows it deleted, and how many it looked at when it skips some (a purge that walks a range). */
export type BatchOutcome = number | { deleted: number; scanned: number };

/**
 * Runs `deleteBatch` (which deletes at most `limit` rows and returns how many it did) until a
 * batch comes back short, so one purge never holds a long lock or a huge transaction;
 * `progress` hears the running count after each full batch. A batch that walks a range and skips
 * rows it may not delete is short when it looked at fewer than `limit`. `batches` counts the
 * statements that deleted rows: N rows take ceil(N / limit) of them, and one more, empty, when N
 * is a multiple.
 * A batch should pick its rows `ORDER BY` the index it reads: without it, on a table where most
 * rows are expired, the planner takes a sequential scan, and each batch then reads again through
 * the dead rows of every batch before it.
 */
export async function deleteInBatches(
  deleteBatch: (limit: number) => Promise<BatchOutcome>,
  progress: (done: { deleted: number }) => void,
  limit: number = BATCH,
): Promise<{ deleted: number; batches: number }> {
  let deleted = 0;
  let batches = 0;
  for (;;) {
    const outcome = await deleteBatch(limit);
    const { deleted: count, scanned } = typeof outcome === 'number' ? { deleted: outcome, scanned: outcome } : outcome;
    deleted += count;
    if (count > 0) batches++;
    if (scanned < limit) return { deleted, batches };
    progress({ deleted });
  }
}
