export interface Quota {
  /** Tokens added per second. */
  ratePerSecond: number;
  /** Bucket size: the largest burst allowed after a quiet period. */
  burst: number;
}

export type Decision = { allowed: true } | { allowed: false; retryAt: Date };

/** Takes one token of an API key's bucket for an operation: in this process, or shared (postgres-buckets.ts). */
export interface RateLimiting {
  take(apiKeyId: string, operation: string, nowMs: number): Decision | Promise<Decision>;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * In-process token buckets, one per API key and operation. Each API process enforces its
 * quota on its own, so N replicas admit up to N times the quota; docs/rate-limits.md says so
 * (RATE_LIMIT_STORE=postgres shares them).
 */
export class RateLimiter implements RateLimiting {
  private readonly buckets = new Map<string, Bucket>();

  constructor(
    private readonly quotaFor: (operation: string) => Quota,
    private readonly maxBuckets = 100_000,
  ) {}

  take(apiKeyId: string, operation: string, nowMs: number): Decision {
    const quota = this.quotaFor(operation);
    const id = `${apiKeyId} ${operation}`;
    const bucket = this.buckets.get(id) ?? { tokens: quota.burst, updatedAt: nowMs };
    const refilled = Math.min(quota.burst, bucket.tokens + ((nowMs - bucket.updatedAt) / 1000) * quota.ratePerSecond);
    if (refilled >= 1) {
      this.remember(id, { tokens: refilled - 1, updatedAt: nowMs });
      return { allowed: true };
    }
    this.remember(id, { tokens: refilled, updatedAt: nowMs });
    const waitMs = Math.ceil(((1 - refilled) / quota.ratePerSecond) * 1000);
    return { allowed: false, retryAt: new Date(nowMs + waitMs) };
  }

  private remember(id: string, bucket: Bucket): void {
    // Re-inserting keeps Map order = recency, so the oldest bucket is evicted first; an evicted
    // bucket comes back full, which only ever errs towards admitting a request.
    this.buckets.delete(id);
    this.buckets.set(id, bucket);
    if (this.buckets.size > this.maxBuckets) {
      const oldest = this.buckets.keys().next().value;
      if (oldest !== undefined) this.buckets.delete(oldest);
    }
  }
}
