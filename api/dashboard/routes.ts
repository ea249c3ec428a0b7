import type { Client } from '@temporalio/client';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { csrfTokenOf } from '../../domain/dashboard-tokens';
import { managesPeople, permissionsOfRole, type DashboardRole } from '../../domain/dashboard-roles';
import { ApiError } from '../../domain/errors';
import type { Database } from '../../prisma/client';
import type { ClientInfo, DashboardActor } from '../../services/dashboard/actor';
import { listAuditEntries, recordAudit, serializeAuditEntry } from '../../services/dashboard/audit-log';
import { acceptInvitation, describeInvitation } from '../../services/dashboard/invitations';
import { listPendingInvitations, revokeInvitation, serializePendingInvitation } from '../../services/dashboard/pending-invitations';
import { changePassword } from '../../services/dashboard/password-change';
import { createPasswordReset, describePasswordReset, resetPassword } from '../../services/dashboard/password-resets';
import { endSession } from '../../services/dashboard/sessions';
import { signIn } from '../../services/dashboard/sign-in';
import { inviteMember, keysIssuedByMember, removeUser, updateUserRole } from '../../services/dashboard/team';
import { endRevokedKeyRotation } from '../../services/api-keys/revoke';
import { serializeApiKey } from '../api-keys/schemas';
import type { SecretCache } from '../auth/secret-cache';
import { confirmTotp, disableTotp, enrollTotp } from '../../services/dashboard/totp';
import { readPortalSettings, updatePortalSettings } from '../../services/portal/settings';
import { connectStripeFromDashboard, paymentProvidersOf } from '../../services/payments/providers/stripe/dashboard-connection';
import { dashboardAccount, listDashboardUsers, serializeDashboardUser, type DashboardUserRow } from '../../services/dashboard/users';
import { formatDateTime } from '../../domain/datetime';
import { paginate } from '../common/pagination';
import { toApiError } from '../errors/envelope';
import { requestHash } from '../idempotency/request-hash';
import { clientInfoOf, sessionCredentialsOf } from './client';
import * as schemas from './schemas';
import { authenticateSession, refuseCrossSite, type AuthenticatedSession } from './session-auth';
import { clearedSessionCookie, sessionCookie, sessionTokenOf } from './session-cookie';
import { deviceCookie, deviceTokenOf } from './device-cookie';
import { publicRouteThrottle } from './public-route-throttle';
import { isHeldRefusal, refusalTarpit } from './refusal-tarpit';
import { refuseUnstorableCharacters } from '../http/unstorable-characters';
import { sendError } from '../errors/send-error';
import { parseJsonBody } from '../http/json-body';

export interface DashboardDependencies {
  db: Database;
  /** To end the rotation of a key revoked with its user. */
  temporal: Client;
  secretCache?: SecretCache;
  now?: () => Date;
}

/**
 * `public`: no session (sign-in, the invitation pages). `reader`: a session, no CSRF token, for
 * `me` alone, which changes nothing and is how a reloaded page learns its token. `session`: a
 * session and its CSRF token. `admin`: that, as a MERCHANT_ADMIN.
 */
type Access = 'public' | 'reader' | 'session' | 'admin';

interface RouteContext {
  db: Database;
  temporal: Client;
  secretCache?: SecretCache;
  now: Date;
  client: ClientInfo;
  /** The session token the request's cookie carries, valid or not. */
  presentedToken?: string;
  /** The known-device token the request's cookie carries, valid or not (device-cookie.ts). */
  presentedDevice?: string;
}

interface SessionContext extends RouteContext {
  session: AuthenticatedSession;
}

interface Outcome {
  status?: number;
  body?: unknown;
  cookie?: 'set' | 'clear';
  token?: string;
  /** Set as the known-device cookie alongside the session's. */
  deviceToken?: string;
}

interface Route {
  access: Access;
  schema: z.ZodType;
  handle(ctx: RouteContext | SessionContext, input: unknown): Promise<Outcome>;
}

function publicRoute<S extends z.ZodType>(schema: S, handle: (ctx: RouteContext, input: z.output<S>) => Promise<Outcome>): Route {
  return { access: 'public', schema, handle: (ctx, input) => handle(ctx, input as z.output<S>) };
}

function sessionRoute<S extends z.ZodType>(
  access: Exclude<Access, 'public'>,
  schema: S,
  handle: (ctx: SessionContext, input: z.output<S>) => Promise<Outcome>,
): Route {
  return { access, schema, handle: (ctx, input) => handle(ctx as SessionContext, input as z.output<S>) };
}

function actorOf(user: DashboardUserRow, sessionId: string): DashboardActor {
  return { userId: user.id, email: user.email, role: user.role as DashboardRole, accountId: user.accountId, sessionId };
}

function signedIn(user: DashboardUserRow, token: string, deviceToken?: string): Outcome {
  return { body: { user: serializeDashboardUser(user), csrf_token: csrfTokenOf(token) }, cookie: 'set', token, deviceToken };
}

function audit(ctx: SessionContext, action: string, objectId?: string): Promise<void> {
  return recordAudit(ctx.db, ctx.session.actor, ctx.client, { action, objectId, at: ctx.now });
}

function page(input: { cursor?: string; limit?: number }) {
  return input.limit === undefined && input.cursor === undefined
    ? undefined
    : { page_size: input.limit ?? 20, next_page_token: input.cursor };
}

function listed<T>(result: { items: T[]; pagination: { next_page_token: string } }) {
  return { data: result.items, next_cursor: result.pagination.next_page_token || null };
}

const ROUTES: Record<string, Route> = {
  'session/accept-invitation': publicRoute(schemas.acceptInvitationRequest, async (ctx, input) => {
    const { user, token, sessionId, deviceToken } = await acceptInvitation(ctx.db, { ...input, previousToken: ctx.presentedToken }, ctx.now, ctx.client);
    await recordAudit(ctx.db, actorOf(user, sessionId), ctx.client, { action: 'session/accept-invitation', objectId: user.id, at: ctx.now });
    return signedIn(user, token, deviceToken);
  }),
  'session/invitation': publicRoute(schemas.invitationRequest, async (ctx, input) => ({
    body: await describeInvitation(ctx.db, input.token, ctx.now),
  })),
  'session/sign-in': publicRoute(schemas.signInRequest, async (ctx, input) => {
    const { user, token, sessionId, deviceToken } = await signIn(
      ctx.db,
      {
        email: input.email,
        password: input.password,
        totpCode: input.totp_code,
        accountId: input.account_id,
        previousToken: ctx.presentedToken,
        deviceToken: ctx.presentedDevice,
      },
      ctx.now,
      ctx.client,
    );
    await recordAudit(ctx.db, actorOf(user, sessionId), ctx.client, { action: 'session/sign-in', objectId: user.id, at: ctx.now });
    return signedIn(user, token, deviceToken);
  }),
  'session/sign-out': sessionRoute('session', schemas.emptyRequest, async (ctx) => {
    await endSession(ctx.db, ctx.session.token);
    await audit(ctx, 'session/sign-out', ctx.session.actor.userId);
    return { status: 204, cookie: 'clear' };
  }),
  'session/me': sessionRoute('reader', schemas.emptyRequest, async (ctx) => ({
    body: {
      user: serializeDashboardUser(ctx.session.user),
      account: await dashboardAccount(ctx.db, ctx.session.actor.accountId),
      csrf_token: csrfTokenOf(ctx.session.token),
      permissions: permissionsOfRole(ctx.session.actor.role),
    },
  })),
  'totp/enroll': sessionRoute('session', schemas.totpEnrollRequest, async (ctx, input) => {
    const enrolled = await enrollTotp(ctx.db, ctx.session.actor, input.password, ctx.now);
    await audit(ctx, 'totp/enroll', ctx.session.actor.userId);
    return { body: enrolled };
  }),
  'totp/confirm': sessionRoute('session', schemas.totpCodeRequest, async (ctx, input) => {
    await confirmTotp(ctx.db, ctx.session.actor, input.code, ctx.now);
    await audit(ctx, 'totp/confirm', ctx.session.actor.userId);
    return { body: { totp_enabled: true } };
  }),
  'totp/disable': sessionRoute('session', schemas.totpDisableRequest, async (ctx, input) => {
    await disableTotp(ctx.db, ctx.session.actor, input, ctx.now);
    await audit(ctx, 'totp/disable', ctx.session.actor.userId);
    return { body: { totp_enabled: false } };
  }),
  'password/change': sessionRoute('session', schemas.changePasswordRequest, async (ctx, input) => {
    await changePassword(ctx.db, ctx.session.actor, { currentPassword: input.current_password, newPassword: input.new_password }, ctx.now);
    await audit(ctx, 'password/change', ctx.session.actor.userId);
    return { status: 204 };
  }),
  'session/password-reset': publicRoute(schemas.passwordResetRequest, async (ctx, input) => ({
    body: await describePasswordReset(ctx.db, input.token, ctx.now),
  })),
  'session/reset-password': publicRoute(schemas.resetPasswordRequest, async (ctx, input) => {
    const user = await resetPassword(ctx.db, input, ctx.now);
    await recordAudit(ctx.db, user, ctx.client, { action: 'session/reset-password', objectId: user.userId, at: ctx.now });
    return { status: 204 };
  }),
  'users/send-password-reset': sessionRoute('admin', schemas.sendPasswordResetRequest, async (ctx, input) => {
    const reset = await createPasswordReset(ctx.db, ctx.session.actor, input.user_id, ctx.now);
    await audit(ctx, 'users/send-password-reset', input.user_id);
    return { body: { reset_url: reset.url, expires_at: formatDateTime(reset.expiresAt) } };
  }),
  'users/list': sessionRoute('admin', schemas.listUsersRequest, async (ctx, input) =>
    ({
      body: listed(
        await paginate(
          page(input),
          requestHash('dashboard/users/list', {}),
          (beforeId, take) => listDashboardUsers(ctx.db, ctx.session.actor.accountId, beforeId, take),
          serializeDashboardUser,
        ),
      ),
    }),
  ),
  'users/invite': sessionRoute('admin', schemas.inviteUserRequest, async (ctx, input) => {
    const invitation = await inviteMember(ctx.db, ctx.session.actor, { email: input.email, role: input.role }, ctx.now);
    await audit(ctx, 'users/invite', invitation.id);
    return { body: { invitation_url: invitation.url, expires_at: formatDateTime(invitation.expiresAt) } };
  }),
  'users/update-role': sessionRoute('admin', schemas.updateRoleRequest, async (ctx, input) => {
    const user = await updateUserRole(ctx.db, ctx.session.actor, input.user_id, input.role, ctx.now);
    await audit(ctx, 'users/update-role', user.id);
    return { body: serializeDashboardUser(user) };
  }),
  'users/list-issued-api-keys': sessionRoute('admin', schemas.listIssuedApiKeysRequest, async (ctx, input) => ({
    body: { data: (await keysIssuedByMember(ctx.db, ctx.session.actor, input.user_id)).map(serializeApiKey) },
  })),
  'users/remove': sessionRoute('admin', schemas.removeUserRequest, async (ctx, input) => {
    const revokedKeys = await removeUser(ctx.db, ctx.session.actor, input.user_id, ctx.now, { revokeApiKeys: input.revoke_api_keys ?? false });
    await audit(ctx, 'users/remove', input.user_id);
    for (const apiKeyId of revokedKeys) {
      ctx.secretCache?.forgetApiKey(apiKeyId);
      await endRevokedKeyRotation(ctx, apiKeyId);
      await audit(ctx, 'api-keys/revoke', apiKeyId);
    }
    return { status: 204 };
  }),
  'invitations/list': sessionRoute('admin', schemas.listInvitationsRequest, async (ctx, input) => ({
    body: listed(
      await paginate(
        page(input),
        requestHash('dashboard/invitations/list', {}),
        (beforeId, take) => listPendingInvitations(ctx.db, ctx.session.actor.accountId, ctx.now, beforeId, take),
        serializePendingInvitation,
      ),
    ),
  })),
  'invitations/revoke': sessionRoute('admin', schemas.revokeInvitationRequest, async (ctx, input) => {
    await revokeInvitation(ctx.db, ctx.session.actor, input.invitation_id, ctx.now);
    await audit(ctx, 'invitations/revoke', input.invitation_id);
    return { status: 204 };
  }),
  'payment-providers/get': sessionRoute('admin', schemas.emptyRequest, async (ctx) => ({
    body: await paymentProvidersOf(ctx.db, ctx.session.actor.accountId),
  })),
  'payment-providers/connect-stripe': sessionRoute('admin', schemas.connectStripeRequest, async (ctx, input) => {
    const connection = await connectStripeFromDashboard(
      ctx.db,
      ctx.session.actor,
      { secretKey: input.secret_key, webhookSecret: input.webhook_secret, apiBase: input.api_base, publishableKey: input.publishable_key },
      ctx.now,
    );
    await audit(ctx, 'payment-providers/connect-stripe', ctx.session.actor.accountId);
    return { body: connection };
  }),
  'portal-settings/get': sessionRoute('session', schemas.emptyRequest, async (ctx) => ({
    body: await readPortalSettings(ctx.db, ctx.session.actor.accountId),
  })),
  'portal-settings/update': sessionRoute('admin', schemas.updatePortalSettingsRequest, async (ctx, input) => {
    const settings = await updatePortalSettings(ctx.db, ctx.session.actor.accountId, input, ctx.now);
    await audit(ctx, 'portal-settings/update', ctx.session.actor.accountId);
    return { body: settings };
  }),
  'audit-log/list': sessionRoute('admin', schemas.listAuditLogRequest, async (ctx, input) => {
    const filters = {
      userId: input.user_id,
      action: input.action,
      objectId: input.object_id,
      from: input.created_at?.from ? new Date(input.created_at.from) : undefined,
      to: input.created_at?.to ? new Date(input.created_at.to) : undefined,
    };
    const { cursor: _cursor, limit: _limit, ...fingerprinted } = input;
    return {
      body: listed(
        await paginate(
          page(input),
          requestHash('dashboard/audit-log/list', fingerprinted),
          (beforeId, take) => listAuditEntries(ctx.db, ctx.session.actor.accountId, filters, beforeId, take),
          serializeAuditEntry,
        ),
      ),
    };
  }),
};


async function run(deps: DashboardDependencies, route: Route, input: unknown, now: Date, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const credentials = sessionCredentialsOf(request);
  const base: RouteContext = {
    db: deps.db,
    temporal: deps.temporal,
    secretCache: deps.secretCache,
    now,
    client: clientInfoOf(request),
    presentedToken: sessionTokenOf(credentials.cookie, credentials.overTls),
    presentedDevice: deviceTokenOf(credentials.cookie),
  };
  let ctx: RouteContext | SessionContext = base;
  if (route.access === 'public') {
    refuseCrossSite(credentials);
  } else {
    const session = await authenticateSession(deps.db, credentials, now, { requireCsrf: route.access !== 'reader' });
    if (route.access === 'admin' && !managesPeople(session.actor.role)) {
      throw new ApiError('PERMISSION_DENIED', 'Only a MERCHANT_ADMIN may do this.', { role: session.actor.role });
    }
    ctx = { ...base, session };
  }
  const outcome = await route.handle(ctx, route.schema.parse(input));
  if (outcome.cookie === 'set' && outcome.token) reply.header('set-cookie', sessionCookie(outcome.token, credentials.overTls));
  if (outcome.cookie === 'clear') reply.header('set-cookie', clearedSessionCookie(credentials.overTls));
  if (outcome.deviceToken) reply.header('set-cookie', deviceCookie(outcome.deviceToken, credentials.overTls));
  reply.code(outcome.status ?? 200);
  return outcome.body === undefined ? reply.send() : reply.type('application/json').send(outcome.body);
}

function routeOf(request: FastifyRequest): Route | undefined {
  const { group, action } = request.params as { group: string; action: string };
  return Object.hasOwn(ROUTES, `${group}/${action}`) ? ROUTES[`${group}/${action}`] : undefined;
}

/**
 * `POST /dashboard/api/{group}/{action}`: the dashboard's own operations (sessions, TOTP, team,
 * audit log). Everything else the dashboard does goes through /v2 with the session cookie
 * (api/auth/authenticate.ts). Answers are JSON, never cached, errors in the /v2 envelope. A route
 * that needs no session takes its address's token first, before the body is read; its refusals
 * (a failed sign-in, a bogus token, a 429) are held, its successes never (refusal-tarpit.ts).
 */
export function registerDashboardRoutes(app: FastifyInstance, deps: DashboardDependencies): void {
  const throttlePublic = publicRouteThrottle();
  const tarpit = refusalTarpit();
  const clock = deps.now ?? (() => new Date());

  const refuse = async (request: FastifyRequest, reply: FastifyReply, error: ApiError): Promise<FastifyReply> => {
    if (isHeldRefusal(error) && (await tarpit(request.ip, reply.elapsedTime)) === 'over-bound') reply.header('connection', 'close');
    return sendError(reply, error);
  };

  const throttleBeforeAnyWork = async (request: FastifyRequest, reply: FastifyReply) => {
    if (routeOf(request)?.access !== 'public') return;
    try {
      throttlePublic(request.ip, clock());
    } catch (error) {
      reply.header('cache-control', 'no-store');
      return refuse(request, reply, toApiError(error, undefined));
    }
  };

  app.post('/dashboard/api/:group/:action', { onRequest: throttleBeforeAnyWork }, async (request, reply) => {
    const { group, action } = request.params as { group: string; action: string };
    reply.header('cache-control', 'no-store');
    const route = routeOf(request);
    if (!route) return sendError(reply, new ApiError('NOT_FOUND', `No endpoint POST /dashboard/api/${group}/${action}.`));
    const now = clock();
    let input: unknown;
    try {
      input = parseJsonBody(request.body);
      refuseUnstorableCharacters(input);
      return await run(deps, route, input, now, request, reply);
    } catch (error) {
      const apiError = toApiError(error, input);
      if (apiError.code === 'INTERNAL') request.log.error({ err: error }, 'dashboard request failed');
      return route.access === 'public' ? refuse(request, reply, apiError) : sendError(reply, apiError);
    }
  });
}

