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

  forgetApiKey(apiKeyId: string): void {
    for (const [lookup, entry] of this.entries) {
      if (entry.record.api_key_id === apiKeyId) this.entries.delete(lookup);
    }
  }
}
