import { takeToken, type BucketState, type Decision, type Quota } from '../../domain/token-bucket';

export type { Decision, Quota };

/** Takes one token of an API key's bucket for an operation: in this process, or shared (postgres-buckets.ts). */
export interface RateLimiting {
  take(apiKeyId: string, operation: string, nowMs: number): Decision | Promise<Decision>;
}

/**
 * In-process token buckets, one per API key and operation. Each API process enforces its
 * quota on its own, so N replicas admit up to N times the quota; docs/rate-limits.md says so
 * (RATE_LIMIT_STORE=postgres shares them).
 */
export class RateLimiter implements RateLimiting {
  private readonly buckets = new Map<string, BucketState>();

  constructor(
    private readonly quotaFor: (operation: string) => Quota,
    private readonly maxBuckets = 100_000,
  ) {}

  take(apiKeyId: string, operation: string, nowMs: number): Decision {
    const id = `${apiKeyId} ${operation}`;
    const { bucket, decision } = takeToken(this.buckets.get(id), this.quotaFor(operation), nowMs);
    this.remember(id, bucket);
    return decision;
  }

  private remember(id: string, bucket: BucketState): void {
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
