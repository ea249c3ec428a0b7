/**
 * `read`, at most once per `ttlMs`: calls within that time of the last read share its result (or
 * the read still in flight). A read that fails is not kept, so the next call tries again. For
 * probes and scrapes that any number of callers may send, so that their database work does not
 * grow with them. Hand-written rather than a memoize package: one value, no key, a clock tests set.
 */
export function recentResult<T>(ttlMs: number, read: () => Promise<T>, clock: () => number = Date.now): () => Promise<T> {
  let kept: { at: number; value: Promise<T> } | undefined;
  return () => {
    const now = clock();
    if (kept && now - kept.at < ttlMs) return kept.value;
    const value = read();
    const entry = { at: now, value };
    kept = entry;
    value.catch(() => {
      if (kept === entry) kept = undefined;
    });
    return value;
  };
}
