import { SecretCache } from './auth/secret-cache';
import { quotaTable } from './rate-limit/quotas';
import { RateLimiter } from './rate-limit/token-bucket';
import { DEFAULT_BODY_LIMIT_BYTES } from './http/server';

export interface ApiConfig {
  port: number;
  host: string;
  bodyLimitBytes: number;
  logLevel: string;
  rateLimiter: RateLimiter;
  secretCache: SecretCache;
}

/** The API's settings from the environment; docs/configuration.md lists them. */
export function apiConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    bodyLimitBytes: Number(env.BODY_LIMIT_BYTES ?? DEFAULT_BODY_LIMIT_BYTES),
    logLevel: env.LOG_LEVEL ?? 'info',
    rateLimiter: new RateLimiter(quotaTable(env.RATE_LIMITS)),
    secretCache: new SecretCache(Number(env.AUTH_CACHE_TTL_MS ?? 1000)),
  };
}
