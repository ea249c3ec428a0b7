import { setTimeout as sleep } from 'node:timers/promises';

const BATCH = 5_000;
/** A pause longer than this would outlast the activity's heartbeat timeout (2 minutes) before the next batch reports. */
const LONGEST_PAUSE_MS = 30_000;

/** What one batch did: the rows it deleted, and how many it looked at when it skips some (a purge that walks a range). */
export type BatchOutcome = number | { deleted: number; scanned: number };

export interface BatchPacing {
  /** Rows one statement deletes at most. */
  batchSize?: number;
  /**
   * The share of the wall clock the purge may spend in its statements, above 0 and at most 1:
   * after each full batch it waits until its statements have taken no more than this share, so a
   * purge catching up on millions of rows leaves the database's cores to the requests.
   */
  busyShare?: number;
}

export interface PacingClock {
  now(): number;
  wait(ms: number): Promise<void>;
}

const realClock: PacingClock = { now: () => performance.now(), wait: (ms) => sleep(ms) };

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
  { batchSize = BATCH, busyShare = 1 }: BatchPacing = {},
  clock: PacingClock = realClock,
): Promise<{ deleted: number; batches: number }> {
  let deleted = 0;
  let batches = 0;
  for (;;) {
    const started = clock.now();
    const outcome = await deleteBatch(batchSize);
    const { deleted: count, scanned } = typeof outcome === 'number' ? { deleted: outcome, scanned: outcome } : outcome;
    deleted += count;
    if (count > 0) batches++;
    if (scanned < batchSize) return { deleted, batches };
    progress({ deleted });
    const busyMs = clock.now() - started;
    if (busyShare < 1) await clock.wait(Math.min(LONGEST_PAUSE_MS, (busyMs * (1 - busyShare)) / busyShare));
  }
}
