import { RateLimiter } from '../../api/rate-limit/token-bucket';
import { quotaTable } from '../../api/rate-limit/quotas';

describe('token bucket', () => {
  it('admits a burst, then refills at the rate and says when the next token arrives', () => {
    const limiter = new RateLimiter(() => ({ ratePerSecond: 2, burst: 3 }));
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(limiter.take('akey_a', 'op', t0).allowed).toBe(true);
    const refused = limiter.take('akey_a', 'op', t0);
    expect(refused).toEqual({ allowed: false, retryAt: new Date(t0 + 500) });
    expect(limiter.take('akey_a', 'op', t0 + 499).allowed).toBe(false);
    expect(limiter.take('akey_a', 'op', t0 + 500).allowed).toBe(true);
  });

  it('keeps one bucket per key and operation', () => {
    const limiter = new RateLimiter(() => ({ ratePerSecond: 1, burst: 1 }));
    expect(limiter.take('akey_a', 'op', 0).allowed).toBe(true);
    expect(limiter.take('akey_a', 'op', 0).allowed).toBe(false);
    expect(limiter.take('akey_b', 'op', 0).allowed).toBe(true);
    expect(limiter.take('akey_a', 'other', 0).allowed).toBe(true);
  });

  it('takes quotas from RATE_LIMITS with * as the fallback', () => {
    const quota = quotaTable('{"*":{"ratePerSecond":5,"burst":6},"invoices:pay":{"ratePerSecond":1,"burst":2}}');
    expect(quota('invoices:pay')).toEqual({ ratePerSecond: 1, burst: 2 });
    expect(quota('customers:get')).toEqual({ ratePerSecond: 5, burst: 6 });
    expect(quota('api-keys:create')).toEqual({ ratePerSecond: 1, burst: 10 });
    expect(() => quotaTable('{"*":{"ratePerSecond":-1,"burst":1}}')).toThrow();
  });
});
