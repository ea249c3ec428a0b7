import { formatDateTime } from '../../domain/datetime';
import { ApiError } from '../../domain/errors';
import type { RateLimiting } from './token-bucket';

/**
 * 429 RATE_LIMIT once the caller's bucket for `permission` is empty (docs/rate-limits.md): every
 * /v2 operation takes a token here, and so does work the customer portal does beside /v2 (a Stripe
 * SetupIntent takes one of `payment-instruments:attach`, whose first half it is).
 */
export async function refuseOverLimit(limiter: RateLimiting, callerId: string, permission: string, now: Date, who = 'this API key'): Promise<void> {
  const decision = await limiter.take(callerId, permission, now.getTime());
  if (!decision.allowed) {
    throw new ApiError('RATE_LIMIT', `Too many ${permission} requests for ${who}.`, { next_try_at: formatDateTime(decision.retryAt) });
  }
}
