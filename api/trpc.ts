import { initTRPC } from '@trpc/server';
import type { OpenApiMeta } from 'trpc-to-openapi';
import { ApiError } from '../domain/errors';
import type { Permission } from '../domain/permissions';
import type { Prisma } from '../prisma/client';
import { authenticate, authenticateCaller } from './auth/authenticate';
import { isAccountLevel } from './auth/principal';
import type { Context } from './context';
import { auditOperation } from './dashboard/audit-operation';
import { refuseOverLimit } from './rate-limit/refuse-over-limit';

export type Meta = OpenApiMeta<{
  permission: Permission;
  /** Section 5.1 item 5: the operation refuses channel-bound keys. */
  accountLevelOnly?: boolean;
  /** Answers 303 See Other with the output's `location` (api/http/see-other.ts). */
  seeOther?: boolean;
  /** Asks a payment provider while the request waits: may answer 503 PROVIDER_UNAVAILABLE (api/openapi/provider-unavailable.ts). */
  asksProvider?: boolean;
  /** The body's array field whose items the operation judges one by one, unstorable characters included (api/http/items-judged-alone.ts). */
  judgesItemsAlone?: string;
}>;

const t = initTRPC.context<Context>().meta<Meta>().create({ isDev: false });

export const router = t.router;
export const mergeRouters = t.mergeRouters;

export type Transaction = Prisma.TransactionClient;

/**
 * Authentication (401), then authorization (403), then the rate limit (429), all before the
 * input is parsed, so a caller learns nothing about the payload it may not send.
 */
export const authorizedProcedure = t.procedure.use(async ({ ctx, meta, next, type, getRawInput }) => {
  if (!meta) throw new Error('Every procedure declares its meta: permission and OpenAPI path.');
  const principal = await authenticateCaller(ctx);
  if (meta.accountLevelOnly && !isAccountLevel(principal)) {
    throw new ApiError('PERMISSION_DENIED', 'This operation requires an account-level API key.');
  }
  if (!principal.permissions.has(meta.permission)) {
    const who = principal.user ? `The dashboard role ${principal.user.role}` : 'This API key';
    throw new ApiError('PERMISSION_DENIED', `${who} lacks the permission ${meta.permission}.`, {
      required_permission: meta.permission,
    });
  }
  await refuseOverLimit(ctx.rateLimiter, principal.apiKeyId, meta.permission, ctx.now());
  const result = await next({
    ctx: {
      principal,
      transaction: <T>(work: (tx: Transaction) => Promise<T>): Promise<T> => ctx.db.$transaction(work),
    },
  });
  const actor = principal.user ?? principal.customer;
  // A replay under an Idempotency-Key changed nothing: the first request's entry stands for both.
  if (actor && type === 'mutation' && result.ok && ctx.responseHeaders['idempotent-replayed'] !== 'true') {
    await auditOperation(ctx, actor, meta.openapi?.path ?? '', await getRawInput(), result.data);
  }
  return result;
});

export type AuthorizedContext = Context & {
  principal: Awaited<ReturnType<typeof authenticate>>;
  /** Runs `work` in one database transaction; under an Idempotency-Key it also stores the response. */
  transaction: <T>(work: (tx: Transaction) => Promise<T>) => Promise<T>;
};

/** The procedure meta for `POST /v2/{resources}/{action}`; the permission is `{resources}:{action}`. */
export function operation(
  path: `${string}/${string}`,
  options: { summary: string; description?: string; accountLevelOnly?: boolean; permission?: Permission; asksProvider?: boolean },
): Meta {
  const [resources] = path.split('/');
  return {
    permission: options.permission ?? (path.replace('/', ':') as Permission),
    accountLevelOnly: options.accountLevelOnly,
    asksProvider: options.asksProvider,
    openapi: {
      method: 'POST',
      path: `/v2/${path}`,
      summary: options.summary,
      description: options.description,
      tags: [resources!],
      protect: true,
    },
  };
}
