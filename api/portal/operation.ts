import type { z } from 'zod';
import type { Database } from '../../prisma/client';
import type { PortalSession } from '../../services/portal/sessions';
import type { PortalCall } from './v2-call';

/** What a portal operation runs with: its session, and a caller for /v2 as the session's customer. */
export interface PortalContext {
  db: Database;
  session: PortalSession;
  /** The cookie's token: `session/me` derives the CSRF token from it. */
  sessionToken: string;
  now: Date;
  v2: PortalCall;
}

export interface PortalOutcome {
  status?: number;
  body?: unknown;
  clearCookie?: boolean;
}

export interface PortalOperation {
  /** `session/me` alone is read without the CSRF token: it is how a page learns it. */
  csrf: boolean;
  schema: z.ZodType;
  handle(ctx: PortalContext, input: unknown): Promise<PortalOutcome>;
}

export function portalOperation<S extends z.ZodType>(schema: S, handle: (ctx: PortalContext, input: z.output<S>) => Promise<PortalOutcome>, options: { csrf?: boolean } = {}): PortalOperation {
  return { csrf: options.csrf ?? true, schema, handle: (ctx, input) => handle(ctx, input as z.output<S>) };
}

/** The portal's list answer: the /v2 page as `data` and the next page's token as `next_cursor`. */
export function listed<T>(page: { items: T[]; pagination: { next_page_token?: string } }) {
  return { data: page.items, next_cursor: page.pagination.next_page_token || null };
}

/** A portal list request's `cursor` and `limit` as /v2 `pagination`. */
export function pagination(input: { cursor?: string | null; limit?: number }) {
  return { page_size: input.limit ?? 20, ...(input.cursor ? { next_page_token: input.cursor } : {}) };
}
