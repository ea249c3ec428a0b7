import { SecretCache } from './auth/secret-cache';
import { quotaTable } from './rate-limit/quotas';
import { PostgresRateLimiter } from './rate-limit/postgres-buckets';
import { RateLimiter, type RateLimiting } from './rate-limit/token-bucket';
import type { Database } from '../prisma/client';
import { DEFAULT_BODY_LIMIT_BYTES } from './http/server';
import { lateEventDays } from '../services/usage/late-event-days';

export interface ApiConfig {
  port: number;
  host: string;
  bodyLimitBytes: number;
  logLevel: string;
  rateLimiter: RateLimiting;
  secretCache: SecretCache;
  usageLateEventDays: number;
}

/** The API's settings from the environment; docs/configuration.md lists them. */
export function apiConfigFromEnv(db: Database, env: NodeJS.ProcessEnv = process.env): ApiConfig {
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    bodyLimitBytes: Number(env.BODY_LIMIT_BYTES ?? DEFAULT_BODY_LIMIT_BYTES),
    logLevel: env.LOG_LEVEL ?? 'info',
    rateLimiter: rateLimiterFor(db, env),
    secretCache: new SecretCache(Number(env.AUTH_CACHE_TTL_MS ?? 1000)),
    usageLateEventDays: lateEventDays(env),
  };
}

/** RATE_LIMIT_STORE: `memory` (each process its own buckets, the default) or `postgres` (shared by every API process). */
function rateLimiterFor(db: Database, env: NodeJS.ProcessEnv): RateLimiting {
  const quotas = quotaTable(env.RATE_LIMITS);
  const store = env.RATE_LIMIT_STORE ?? 'memory';
  if (store === 'postgres') return new PostgresRateLimiter(db, quotas);
  if (store === 'memory') return new RateLimiter(quotas);
  throw new Error(`RATE_LIMIT_STORE must be memory or postgres, not ${store} (docs/rate-limits.md).`);
}
