/** What authentication needs of a stored secret and its key. */
export interface SecretRecord {
  hash: Uint8Array;
  expires_at: Date | null;
  revoked_at: Date | null;
  api_key_id: string;
  account_id: string;
  permissions: string[];
  channel_ids: string[];
}

/**
 * Secret records recently read, so a busy key does not cost a query on every request. The
 * hash, revocation and expiry are still checked on each request against the cached record, so
 * a rotation's overlap ends on time; a revocation or permission change made by another API
 * process is seen within `ttlMs`. The process that revokes forgets the key at once.
 */
export class SecretCache {
  private readonly entries = new Map<string, { record: SecretRecord; readAt: number }>();
  /** Reads under way: the requests that find an entry missing or expired at the same moment share one. */
  private readonly reading = new Map<string, Promise<SecretRecord | undefined>>();
  /** Bumped by forgetApiKey, so a read that started before it does not put back what it forgot. */
  private generation = 0;

  constructor(
    private readonly ttlMs = 1000,
    private readonly maxEntries = 10_000,
  ) {}

  get(lookup: string, nowMs: number): SecretRecord | undefined {
    const entry = this.entries.get(lookup);
    if (!entry) return undefined;
    if (nowMs - entry.readAt >= this.ttlMs) {
      this.entries.delete(lookup);
      return undefined;
    }
    return entry.record;
  }

  set(lookup: string, record: SecretRecord, nowMs: number): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(lookup, { record, readAt: nowMs });
  }

  /**
   * The record of `lookup`: from memory, or from `read`, called once for all the requests that
   * ask while it runs (under load a key's expiry would otherwise send every request in flight to
   * the database at once).
   */
  async read(lookup: string, nowMs: number, read: () => Promise<SecretRecord | undefined>): Promise<SecretRecord | undefined> {
    const cached = this.get(lookup, nowMs);
    if (cached) return cached;
    const pending = this.reading.get(lookup);
    if (pending) return pending;
    const generation = this.generation;
    const reading = read()
      .then((record) => {
        if (record && generation === this.generation) this.set(lookup, record, nowMs);
        return record;
      })
      .finally(() => {
        if (this.reading.get(lookup) === reading) this.reading.delete(lookup);
      });
    this.reading.set(lookup, reading);
    return reading;
  }

  forgetApiKey(apiKeyId: string): void {
    this.generation++;
    this.reading.clear();
    for (const [lookup, entry] of this.entries) {
      if (entry.record.api_key_id === apiKeyId) this.entries.delete(lookup);
    }
  }
}
