import type { Database } from '../../prisma/client';
import type { Decision, Quota, RateLimiting } from './token-bucket';

interface Taken {
  allowed: boolean;
  tokens: number;
  updated_at_ms: number;
}

/**
 * Token buckets every API process shares (RATE_LIMIT_STORE=postgres, docs/rate-limits.md): one
 * statement per request refills the bucket by the time passed on the database's clock, takes a
 * token if one is there and says whether it did. The row lock of the upsert serialises takes of
 * the same bucket across processes, so N processes admit the quota once, not N times.
 */
export class PostgresRateLimiter implements RateLimiting {
  constructor(
    private readonly db: Database,
    private readonly quotaFor: (operation: string) => Quota,
  ) {}

  async take(apiKeyId: string, operation: string): Promise<Decision> {
    const { ratePerSecond: rate, burst } = this.quotaFor(operation);
    const [taken] = await this.db.$queryRaw<Taken[]>`
      INSERT INTO rate_limit_buckets AS b (id, tokens, updated_at_ms, allowed)
      VALUES (${`${apiKeyId} ${operation}`}, ${burst}::float8 - 1, extract(epoch FROM clock_timestamp()) * 1000, true)
      ON CONFLICT (id) DO UPDATE SET
        tokens = least(${burst}::float8, b.tokens + greatest(0, excluded.updated_at_ms - b.updated_at_ms) / 1000 * ${rate}::float8)
          - CASE WHEN least(${burst}::float8, b.tokens + greatest(0, excluded.updated_at_ms - b.updated_at_ms) / 1000 * ${rate}::float8) >= 1 THEN 1 ELSE 0 END,
        allowed = least(${burst}::float8, b.tokens + greatest(0, excluded.updated_at_ms - b.updated_at_ms) / 1000 * ${rate}::float8) >= 1,
        updated_at_ms = greatest(b.updated_at_ms, excluded.updated_at_ms)
      RETURNING allowed, tokens, updated_at_ms`;
    if (taken!.allowed) return { allowed: true };
    const waitMs = Math.ceil(((1 - taken!.tokens) / rate) * 1000);
    return { allowed: false, retryAt: new Date(taken!.updated_at_ms + waitMs) };
  }
}
