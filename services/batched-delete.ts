const BATCH = 5_000;

/**
 * Runs `deleteBatch` (which deletes at most `limit` rows and returns how many it did) until a
 * batch comes back short, so one purge never holds a long lock or a huge transaction;
 * `progress` hears the running count after each full batch. `batches` counts the statements that
 * deleted rows: N rows take ceil(N / limit) of them, and one more, empty, when N is a multiple.
 */
export async function deleteInBatches(
  deleteBatch: (limit: number) => Promise<number>,
  progress: (done: { deleted: number }) => void,
  limit: number = BATCH,
): Promise<{ deleted: number; batches: number }> {
  let deleted = 0;
  let batches = 0;
  for (;;) {
    const count = await deleteBatch(limit);
    deleted += count;
    if (count > 0) batches++;
    if (count < limit) return { deleted, batches };
    progress({ deleted });
  }
}
