import type { Client as TemporalClient } from '@temporalio/client';
import type { Database } from '../prisma/client';
import type { ClientInfo } from '../services/dashboard/actor';
import type { SessionCredentials } from './dashboard/session-auth';
import type { SecretCache } from './auth/secret-cache';
import type { RateLimiting } from './rate-limit/token-bucket';
import type { Principal } from './auth/principal';

/**
 * Everything a procedure may use, built without an HTTP request (api/http/server.ts makes one
 * per request and calls the procedure with it).
 */
export interface Context {
  db: Database;
  temporal: TemporalClient;
  rateLimiter: RateLimiting;
  /** Absent in tests that want every request to read the database. */
  secretCache?: SecretCache;
  requestId: string;
  /** The raw `Authorization` header. */
  authorization?: string;
  /** The raw `Idempotency-Key` header. */
  idempotencyKey?: string;
  /** The dashboard's cookie and CSRF header: the credentials when no `Authorization` is sent (docs/dashboard.md). */
  session?: SessionCredentials;
  /**
   * The caller as the customer portal's transport resolved it (api/portal/): set only there, and
   * then used instead of any header (api/auth/authenticate.ts).
   */
  portalPrincipal?: Principal;
  /** Address and user agent, written to the audit log for a dashboard user's changes. */
  client?: ClientInfo;
  /** Headers a procedure or middleware adds to its response. */
  responseHeaders: Record<string, string>;
  now: () => Date;
  /** USAGE_LATE_EVENT_DAYS (api/config.ts); absent: the default of domain/usage/ingestion-window.ts. */
  usageLateEventDays?: number;
}

export type ContextDependencies = Pick<Context, 'db' | 'temporal' | 'rateLimiter' | 'secretCache' | 'usageLateEventDays'> & { now?: () => Date };

export function createContext(
  deps: ContextDependencies,
  request: { requestId: string; authorization?: string; idempotencyKey?: string; session?: SessionCredentials; client?: ClientInfo; portalPrincipal?: Principal },
): Context {
  return { ...deps, ...request, now: deps.now ?? (() => new Date()), responseHeaders: {} };
}
