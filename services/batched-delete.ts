const BATCH = 5_000;

/**
 * Runs `deleteBatch` (which deletes at most `limit` rows and returns how many it did) until a
 * batch comes back short, so one purge never holds a long lock or a huge transaction;
 * `progress` hears the running count after each full batch.
 */
export async function deleteInBatches(
  deleteBatch: (limit: number) => Promise<number>,
  progress: (done: { deleted: number }) => void,
): Promise<{ deleted: number }> {
  let deleted = 0;
  for (;;) {
    const count = await deleteBatch(BATCH);
    deleted += count;
    if (count < BATCH) return { deleted };
    progress({ deleted });
  }
}
