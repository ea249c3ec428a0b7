import { deleteInBatches, type PacingClock } from '../../services/batched-delete';

/** A clock that only moves when a batch works or the purge waits, so the pacing is exact. */
function fakeClock() {
  let now = 0;
  const waits: number[] = [];
  const clock: PacingClock = {
    now: () => now,
    wait: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  };
  return { clock, waits, advance: (ms: number) => (now += ms), elapsed: () => now };
}

/** Batches of `limit` rows over `rows` rows, each taking `busyMs` of the clock. */
function batchesOver(rows: number, busyMs: number, advance: (ms: number) => void) {
  let left = rows;
  return async (limit: number) => {
    advance(busyMs);
    const deleted = Math.min(limit, left);
    left -= deleted;
    return deleted;
  };
}

describe('deleteInBatches pacing', () => {
  it('waits after each full batch so its statements take no more than the busy share of the time', async () => {
    const { clock, waits, advance, elapsed } = fakeClock();
    const result = await deleteInBatches(batchesOver(25, 40, advance), () => {}, { batchSize: 10, busyShare: 0.2 }, clock);
    expect(result).toEqual({ deleted: 25, batches: 3 });
    // Two full batches of 40 ms, each followed by 160 ms: 20 % busy; the short last batch ends it without a wait.
    expect(waits).toEqual([160, 160]);
    expect(elapsed()).toBe(3 * 40 + 2 * 160);
  });

  it('does not wait at its whole share, and never longer than 30 s whatever a batch took', async () => {
    const whole = fakeClock();
    await deleteInBatches(batchesOver(30, 40, whole.advance), () => {}, { batchSize: 10, busyShare: 1 }, whole.clock);
    expect(whole.waits).toEqual([]);

    const slow = fakeClock();
    await deleteInBatches(batchesOver(15, 60_000, slow.advance), () => {}, { batchSize: 10, busyShare: 0.1 }, slow.clock);
    expect(slow.waits).toEqual([30_000]);
  });
});
