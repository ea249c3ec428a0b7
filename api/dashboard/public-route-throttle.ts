import { clientAddressKey } from '../../domain/client-address-key';
import { ApiError } from '../../domain/errors';
import { formatDateTime } from '../../domain/datetime';
import { dashboardSettings } from '../../services/dashboard/config';
import { RateLimiter } from '../rate-limit/token-bucket';

/**
 * A token bucket per client address (IPv6 per /64) over every route that needs no session:
 * sign-in, the invitation pages and whatever else anyone may call. Taken before the request does
 * any work, so one address cannot make this process hash passwords or query the database at will.
 * In memory, per process: it guards that process's CPU; the sign-in counts that guard accounts
 * are in PostgreSQL and shared (services/dashboard/sign-in-throttle.ts).
 */
export function publicRouteThrottle(): (ip: string | undefined, now: Date) => void {
  const buckets = new RateLimiter(() => {
    const perMinute = dashboardSettings().publicRequestsPerMinute;
    return { ratePerSecond: perMinute / 60, burst: perMinute };
  });
  return (ip, now) => {
    const decision = buckets.take(clientAddressKey(ip ?? ''), 'dashboard:public', now.getTime());
    if (!decision.allowed) {
      throw new ApiError('RATE_LIMIT', 'Too many requests from this address. Try again later.', { next_try_at: formatDateTime(decision.retryAt) });
    }
  };
}
