import type { FastifyInstance, FastifyRequest } from 'fastify';
import { csrfTokenMatches } from '../../domain/dashboard-tokens';
import { ApiError } from '../../domain/errors';
import { openPortalLink, resolvePortalSession } from '../../services/portal/sessions';
import type { ContextDependencies } from '../context';
import { clientInfoOf, sessionCredentialsOf } from '../dashboard/client';
import { publicRouteThrottle } from '../dashboard/public-route-throttle';
import { refuseCrossSite } from '../dashboard/session-auth';
import { toApiError } from '../errors/envelope';
import { refuseUnstorableCharacters } from '../http/unstorable-characters';
import { customerFacing } from './customer-facing';
import type { PortalOperation } from './operation';
import { billingDetailsOperations } from './operations/billing-details';
import { invoiceOperations } from './operations/invoices';
import { paymentInstrumentOperations } from './operations/payment-instruments';
import { sessionOperations } from './operations/session';
import { stripeCardOperations } from './operations/stripe-cards';
import { subscriptionOperations } from './operations/subscriptions';
import { portalPrincipal } from './portal-principal';
import { clearedPortalCookie, portalCookie, portalTokenOf } from './session-cookie';
import { sendError } from '../errors/send-error';
import { parseJsonBody } from '../http/json-body';

const OPERATIONS: Record<string, PortalOperation> = {
  ...sessionOperations,
  ...invoiceOperations,
  ...paymentInstrumentOperations,
  ...stripeCardOperations,
  ...subscriptionOperations,
  ...billingDetailsOperations,
};

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}



const sessionEnded = () => new ApiError('UNAUTHENTICATED', 'The portal session has ended or expired; open the portal again from the merchant’s site.');

/**
 * The customer portal's transport (docs/portal.md): `GET /portal/open/<token>` turns a one-time
 * link into a session cookie, and `POST /portal/api/{group}/{action}` runs the portal's
 * operations for that session's customer alone, each through the /v2 operation it names.
 */
export function registerPortalRoutes(app: FastifyInstance, deps: ContextDependencies): void {
  const throttle = publicRouteThrottle();
  const clock = deps.now ?? (() => new Date());

  app.get('/portal/open/:token', async (request, reply) => {
    reply.headers({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
    const now = clock();
    try {
      throttle(request.ip, now);
    } catch (error) {
      return sendError(reply, toApiError(error, undefined));
    }
    const { token } = request.params as { token: string };
    const opened = await openPortalLink(deps.db, token, now, clientInfoOf(request));
    if (!opened.opened) return reply.code(303).header('location', `/portal/link-refused?reason=${opened.refusal}`).send();
    return reply.code(303).header('set-cookie', portalCookie(opened.token, sessionCredentialsOf(request).overTls)).header('location', '/portal/').send();
  });

  app.post('/portal/api/:group/:action', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { group, action } = request.params as { group: string; action: string };
    const name = `${group}/${action}`;
    const operation = Object.hasOwn(OPERATIONS, name) ? OPERATIONS[name] : undefined;
    if (!operation) return sendError(reply, new ApiError('NOT_FOUND', `No endpoint POST /portal/api/${name}.`));
    const credentials = sessionCredentialsOf(request);
    const responseHeaders: Record<string, string> = {};
    let input: unknown;
    try {
      refuseCrossSite(credentials);
      const now = clock();
      const token = portalTokenOf(credentials.cookie, credentials.overTls);
      const session = token ? await resolvePortalSession(deps.db, token, now) : null;
      if (!token || !session) throw sessionEnded();
      if (operation.csrf && !csrfTokenMatches(token, credentials.csrfToken)) {
        throw new ApiError('PERMISSION_DENIED', 'The `x-csrf-token` header is missing or does not match this portal session (from session/me).', { header: 'x-csrf-token' });
      }
      input = parseJsonBody(request.body);
      refuseUnstorableCharacters(input);
      const outcome = await operation.handle(
        {
          db: deps.db,
          session,
          sessionToken: token,
          now,
          v2: {
            deps,
            requestId: request.id,
            client: clientInfoOf(request),
            principal: portalPrincipal(session.actor, session.channelId),
            idempotencyKey: header(request, 'idempotency-key'),
            responseHeaders,
          },
        },
        operation.schema.parse(input),
      );
      if (outcome.clearCookie) reply.header('set-cookie', clearedPortalCookie(credentials.overTls));
      reply.headers(responseHeaders).code(outcome.status ?? 200);
      return outcome.body === undefined ? reply.send() : reply.type('application/json').send(customerFacing(outcome.body));
    } catch (error) {
      const apiError = toApiError(error, input);
      if (apiError.code === 'INTERNAL') request.log.error({ err: error, operation: name }, 'portal request failed');
      return sendError(reply.headers(responseHeaders), apiError);
    }
  });
}
