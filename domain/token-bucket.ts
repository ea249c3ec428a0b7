export interface Quota {
  /** Tokens added per second. */
  ratePerSecond: number;
  /** Bucket size: the largest burst allowed after a quiet period. */
  burst: number;
}

export interface BucketState {
  tokens: number;
  updatedAt: number;
}

export type Decision = { allowed: true } | { allowed: false; retryAt: Date };

/**
 * One token taken from a bucket (a new one starts full) at `nowMs`: the bucket's state after it
 * and whether the token was there, else when it will be. The arithmetic of every in-process token
 * bucket: the API keys' quotas (api/rate-limit/token-bucket.ts) and the budget of sign-ins from
 * unknown clients (services/dashboard/unknown-client-sign-ins.ts).
 */
export function takeToken(bucket: BucketState | undefined, quota: Quota, nowMs: number): { bucket: BucketState; decision: Decision } {
  const current = bucket ?? { tokens: quota.burst, updatedAt: nowMs };
  const refilled = Math.min(quota.burst, current.tokens + ((nowMs - current.updatedAt) / 1000) * quota.ratePerSecond);
  if (refilled >= 1) return { bucket: { tokens: refilled - 1, updatedAt: nowMs }, decision: { allowed: true } };
  const waitMs = Math.ceil(((1 - refilled) / quota.ratePerSecond) * 1000);
  return { bucket: { tokens: refilled, updatedAt: nowMs }, decision: { allowed: false, retryAt: new Date(nowMs + waitMs) } };
}
