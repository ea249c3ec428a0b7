import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { createContext, type ContextDependencies } from '../context';
import { toApiError } from '../errors/envelope';
import { registerFileRoutes } from '../files/routes';
import { openApiDocument } from '../openapi/document';
import { registerReferencePage } from '../openapi/reference-page';
import { appRouter } from '../router';
import { registerV1Routes } from '../v1/routes';
import { registerStripeWebhookRoutes } from '../providers/stripe-webhooks';
import { createLogger, type Logger } from '../../services/logging/logger';
import { registerDashboardRoutes } from '../dashboard/routes';
import { registerPortalRoutes } from '../portal/routes';
import { registerHostedInvoiceRoutes } from '../portal/hosted-invoice-routes';
import { clientInfoOf, sessionCredentialsOf } from '../dashboard/client';
import { registerDashboardStatic } from './dashboard-static';
import { registerPortalStatic } from './portal-static';
import { registerHealthRoutes } from './health';
import { refuseUnstorableCharacters } from './unstorable-characters';
import { itemsJudgedAlone, withoutItems } from './items-judged-alone';
import { ApiMetrics, registerMetrics } from './metrics';
import { procedureTable } from './procedure-table';
import { callProcedure } from './call-procedure';
import { seeOtherPaths, type SeeOther } from './see-other';
import { drainConnectionsOnClose } from './connection-drain';
import { registerSlowRequestLog, slowRequestSetting } from './slow-requests';
import { trustProxySetting } from './trust-proxy';
import { sendError } from '../errors/send-error';
import { parseJsonBody } from './json-body';

/** 1 MiB: far above any legitimate request, small enough that parsing never hurts. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

export interface ServerOptions {
  bodyLimitBytes?: number;
  logLevel?: string;
  /** The logger to write to (services/logging/logger.ts); by default one is made at `logLevel`, none when that is absent or `silent`. */
  logger?: Logger;
  /** Where the counters live; by default a fresh set per server, without the process's own metrics (entry points pass those: services/metrics/process-metrics.ts). */
  metrics?: ApiMetrics;
  publicUrl?: string;
  /** Fastify's `trustProxy`; default from TRUST_PROXY (api/http/trust-proxy.ts). */
  trustProxy?: boolean | string;
  /** Requests slower than this are logged at `warn`; default from SLOW_REQUEST_MS (api/http/slow-requests.ts). */
  slowRequestMs?: number;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}



/**
 * The /v2 HTTP surface: `POST /v2/{resources}/{action}` dispatched to the tRPC procedure whose
 * OpenAPI meta names that path, every outcome in the section 7.1 envelope, every response
 * with a `request-id`.
 */
export function buildServer(deps: ContextDependencies, options: ServerOptions = {}): FastifyInstance {
  const logger = options.logger ?? (options.logLevel && options.logLevel !== 'silent' ? createLogger({ name: 'api', level: options.logLevel }) : undefined);
  const app = Fastify({
    bodyLimit: options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES,
    ...(logger ? { loggerInstance: logger as FastifyBaseLogger } : { logger: false }),
    // Every line a request logs carries its id as `request_id`, the value of the `request-id` header.
    // Probes and scrapes come every few seconds and say nothing about a request: their lines would drown the rest.
    logController: new LogController({ requestIdLogLabel: 'request_id', disableRequestLogging: (request) => /^\/(metrics|health)/.test(request.url ?? '') }),
    genReqId: () => newId('request'),
    trustProxy: options.trustProxy ?? trustProxySetting(process.env.TRUST_PROXY),
    requestIdHeader: false,
  });
  const routes = procedureTable(appRouter);
  const seeOther = seeOtherPaths(appRouter);
  const judgedAlone = itemsJudgedAlone(appRouter);
  // Built on first request: generating it costs 90–170 ms of CPU, which every start (each test
  // file's too) paid before any client had asked for it.
  let document: ReturnType<typeof openApiDocument> | undefined;

  app.addHook('onRequest', async (request, reply) => {
    reply.header('request-id', request.id);
  });
  registerSlowRequestLog(app, options.slowRequestMs ?? slowRequestSetting(process.env.SLOW_REQUEST_MS));
  drainConnectionsOnClose(app);

  // Bodies are read as text and parsed by us, whatever the content type, so malformed JSON
  // becomes a VALIDATION envelope rather than a framework error.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.setErrorHandler((error: { code?: string; statusCode?: number }, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413) {
      return sendError(reply, new ApiError('PAYLOAD_TOO_LARGE', `The request body exceeds ${app.initialConfig.bodyLimit} bytes.`));
    }
    if (error.statusCode && error.statusCode < 500) {
      return sendError(reply, ApiError.validation({ body: { type: 'FORMAT', message: 'The request could not be read.' } }));
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, toApiError(error, undefined));
  });

  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new ApiError('NOT_FOUND', `No endpoint ${request.method} ${request.url.split('?')[0]}.`)),
  );

  app.get('/openapi.json', async () => (document ??= openApiDocument(options.publicUrl ?? 'http://localhost:3000')));
  registerReferencePage(app);
  registerHealthRoutes(app, deps);
  registerMetrics(app, options.metrics ?? new ApiMetrics(), (request) => {
    const path = request.url.split('?')[0]!;
    return routes.has(path) ? path.slice('/v2/'.length) : undefined;
  });
  registerFileRoutes(app, deps);
  registerV1Routes(app, deps);
  registerStripeWebhookRoutes(app, deps);
  registerDashboardStatic(app);
  registerPortalStatic(app);
  registerDashboardRoutes(app, deps);
  registerPortalRoutes(app, deps);
  registerHostedInvoiceRoutes(app, deps);

  app.post('/v2/:resources/:action', async (request, reply) => {
    const path = request.url.split('?')[0]!;
    const dotted = routes.get(path);
    if (!dotted) return sendError(reply, new ApiError('NOT_FOUND', `No endpoint POST ${path}.`));

    const ctx = createContext(deps, {
      requestId: request.id,
      authorization: header(request, 'authorization'),
      idempotencyKey: header(request, 'idempotency-key'),
      session: sessionCredentialsOf(request),
      client: clientInfoOf(request),
    });
    let input: unknown;
    try {
      input = parseJsonBody(typeof request.body === 'string' ? request.body : '');
      refuseUnstorableCharacters(withoutItems(input, judgedAlone.get(path)));
      const result = await callProcedure(dotted, ctx, input);
      if (seeOther.has(path)) {
        return reply.headers(ctx.responseHeaders).code(303).header('location', (result as SeeOther).location).send(result);
      }
      return reply.headers(ctx.responseHeaders).code(200).send(result);
    } catch (error) {
      const apiError = toApiError(error, input);
      if (apiError.code === 'INTERNAL') request.log.error({ err: error, path }, 'procedure failed');
      // Not our fault, but the operator's to know: the provider's own error, which the answer does not show.
      if (apiError.code === 'PROVIDER_UNAVAILABLE') request.log.warn({ err: apiError.cause, path, provider: apiError.context?.provider }, 'payment provider unavailable');
      return sendError(reply.headers(ctx.responseHeaders), apiError);
    }
  });

  return app;
}
