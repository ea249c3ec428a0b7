/**
 * Where a receiver remembers the `event_id`s it processed (section 6.1 rule 2: at least 7 days).
 * `remember` must be atomic: of two concurrent calls with one id, exactly one gets `true`.
 */
export interface EventIdStore {
  /** Records the id for `ttlMs`; false when it is already recorded and not yet expired. */
  remember(eventId: string, ttlMs: number): Promise<boolean>;
  /** Drops the id again, so a delivery whose processing failed is processed when it comes back. */
  forget(eventId: string): Promise<void>;
}
