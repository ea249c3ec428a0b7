import { SecretCache } from './auth/secret-cache';
import { quotaTable } from './rate-limit/quotas';
import { PostgresRateLimiter } from './rate-limit/postgres-buckets';
import { RateLimiter, type RateLimiting } from './rate-limit/token-bucket';
import type { Database } from '../prisma/client';
import { DEFAULT_BODY_LIMIT_BYTES } from './http/server';
import { DEFAULT_LATE_EVENT_DAYS } from '../domain/usage/ingestion-window';

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
    usageLateEventDays: usageLateEventDays(env),
  };
}

/**
 * Usage events are kept, and so deduplicated, for at least 400 days (docs/usage.md): a late window
 * well inside that means no id is ever accepted again after its first copy was purged.
 */
const MAX_LATE_EVENT_DAYS = 365;

/** USAGE_LATE_EVENT_DAYS: how many days back usage-events/ingest accepts a timestamp (docs/usage.md, "Ingestion"). */
export function usageLateEventDays(env: NodeJS.ProcessEnv = process.env): number {
  const value = env.USAGE_LATE_EVENT_DAYS;
  if (value === undefined || value === '') return DEFAULT_LATE_EVENT_DAYS;
  const days = Number(value);
  if (!Number.isInteger(days) || days < 1 || days > MAX_LATE_EVENT_DAYS) {
    throw new Error(`USAGE_LATE_EVENT_DAYS must be a whole number of days from 1 to ${MAX_LATE_EVENT_DAYS}, not ${value} (docs/configuration.md).`);
  }
  return days;
}

/** RATE_LIMIT_STORE: `memory` (each process its own buckets, the default) or `postgres` (shared by every API process). */
function rateLimiterFor(db: Database, env: NodeJS.ProcessEnv): RateLimiting {
  const quotas = quotaTable(env.RATE_LIMITS);
  const store = env.RATE_LIMIT_STORE ?? 'memory';
  if (store === 'postgres') return new PostgresRateLimiter(db, quotas);
  if (store === 'memory') return new RateLimiter(quotas);
  throw new Error(`RATE_LIMIT_STORE must be memory or postgres, not ${store} (docs/rate-limits.md).`);
}
