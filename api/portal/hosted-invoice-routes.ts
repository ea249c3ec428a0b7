import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { nextStatus } from '../../domain/invoice-status';
import { invoiceIdOfHostedToken } from '../../domain/portal/hosted-invoice-token';
import { hostedInvoiceSigningKey } from '../../services/invoices/hosted-invoice-url';
import { createStripeSetupIntent } from '../../services/payment-instruments/stripe-setup-intent';
import { readHostedInvoice, type HostedInvoice } from '../../services/portal/hosted-invoice';
import { portalPaymentProvider } from '../../services/portal/payment-provider';
import type { ContextDependencies } from '../context';
import { clientInfoOf, sessionCredentialsOf } from '../dashboard/client';
import { publicRouteThrottle } from '../dashboard/public-route-throttle';
import { refuseCrossSite } from '../dashboard/session-auth';
import { toApiError } from '../errors/envelope';
import { refuseUnstorableCharacters } from '../http/unstorable-characters';
import { IDEMPOTENCY_KEY } from '../idempotency/with-idempotency';
import { attachPaymentInstrumentRequest } from '../payment-instruments/attach';
import { findIdempotencyRecord } from '../idempotency/records';
import { refuseOverLimit } from '../rate-limit/refuse-over-limit';
import { customerFacing } from './customer-facing';
import { portalPrincipal } from './portal-principal';
import { callV2, type PortalCall } from './v2-call';
import { sendError } from '../errors/send-error';
import { parseJsonBody } from '../http/json-body';

/** `token`: the last path segment of `hosted_invoice_url`. */
const getRequest = z.strictObject({ token: z.string().max(200) });

/**
 * The card is payment-instruments/tokenize's to validate: its refusals then name `card.…` as they
 * do there. A Stripe-connected account's page gives the SetupIntent Stripe.js confirmed instead.
 */
const payRequest = z
  .strictObject({ token: z.string().max(200), card: z.unknown().optional(), setup_intent_id: attachPaymentInstrumentRequest.shape.setup_intent_id })
  .refine((body) => (body.card === undefined) !== (body.setup_intent_id === undefined), {
    path: ['card'],
    message: 'Give either card (the sandbox card form) or setup_intent_id (Stripe).',
  });

/** The two /v2 calls of one payment each take the request's Idempotency-Key with their own suffix. */
const KEY_SUFFIXES = { tokenize: ':tokenize', attach: ':attach', pay: ':pay' } as const;
const MAX_KEY_LENGTH = 255 - Math.max(...Object.values(KEY_SUFFIXES).map((suffix) => suffix.length));

/** Any wrong token, malformed or signed by another key, is one answer: it tells nothing about which invoices exist. */
const unknownLink = () => new ApiError('NOT_FOUND', 'No invoice has this link. Use the hosted_invoice_url of the invoice as given.');

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}



function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const key = header(request, 'idempotency-key');
  if (key !== undefined && (!IDEMPOTENCY_KEY.test(key) || key.length > MAX_KEY_LENGTH)) {
    throw ApiError.validation({ 'Idempotency-Key': { type: 'FORMAT', message: `Use 1 to ${MAX_KEY_LENGTH} printable ASCII characters, for example a UUID.` } });
  }
  return key;
}

/** What paying needs and nothing more: the hosted page's customer may save a card and pay, this invoice alone (checked by its token). */
const HOSTED_PERMISSIONS = ['payment-instruments:tokenize', 'payment-instruments:attach', 'invoices:pay'] as const;

async function hostedInvoiceOf(deps: ContextDependencies, token: string, now: Date): Promise<HostedInvoice> {
  const key = hostedInvoiceSigningKey();
  const invoiceId = key && invoiceIdOfHostedToken(key, token);
  const hosted = invoiceId && (await readHostedInvoice(deps.db, invoiceId, now));
  if (!hosted) throw unknownLink();
  return hosted;
}

interface ActionContext {
  deps: ContextDependencies;
  request: FastifyRequest;
  now: Date;
  /** Headers the /v2 operations set (`idempotent-replayed`, a 503's `retry-after`), passed on to the answer, a refusal's too. */
  responseHeaders: Record<string, string>;
}

type Action = (ctx: ActionContext, input: unknown) => Promise<unknown>;

const ACTIONS: Record<string, Action> = {
  get: async ({ deps, now }, input) => {
    const { token } = getRequest.parse(input);
    const hosted = await hostedInvoiceOf(deps, token, now);
    return { invoice: hosted.invoice, account: { name: hosted.accountName }, payment_provider: await portalPaymentProvider(deps.db, hosted.actor.accountId) };
  },

  /**
   * A SetupIntent of the invoice's customer for Stripe.js to save the card with, for a payable
   * invoice of a Stripe-connected account (as the portal's payment-instruments/create-setup-intent).
   */
  'create-setup-intent': async ({ deps, request, now }, input) => {
    const idempotencyKey = idempotencyKeyOf(request);
    const { token } = getRequest.parse(input);
    const hosted = await hostedInvoiceOf(deps, token, now);
    nextStatus('pay', hosted.invoice.status);
    await refuseOverLimit(deps.rateLimiter, hosted.actor.customerId, 'payment-instruments:attach', now, 'this customer');
    return createStripeSetupIntent(deps.db, hosted.actor, idempotencyKey, now);
  },

  /**
   * The card becomes an instrument of the invoice's customer and pays the invoice, through
   * payment-instruments/tokenize (or attach, for the SetupIntent) and invoices/pay: their
   * validation, refusals, events and webhooks. A decline is a 200 with the payment's status, as
   * invoices/pay answers it.
   */
  pay: async ({ deps, request, now, responseHeaders }, input) => {
    const idempotencyKey = idempotencyKeyOf(request);
    const { token, card, setup_intent_id } = payRequest.parse(input);
    const hosted = await hostedInvoiceOf(deps, token, now);
    // An invoice that cannot be paid is refused before any card is saved, unless this is a retry
    // whose payment was already answered: that one gets its first answer back (the replay).
    const answered = idempotencyKey !== undefined && (await findIdempotencyRecord(deps.db, hosted.actor.customerId, `${idempotencyKey}${KEY_SUFFIXES.pay}`));
    if (!answered) nextStatus('pay', hosted.invoice.status);
    const call: PortalCall = {
      deps,
      requestId: request.id,
      client: clientInfoOf(request),
      principal: portalPrincipal(hosted.actor, hosted.channelId, HOSTED_PERMISSIONS),
      responseHeaders,
    };
    const derivedKey = (suffix: string) => idempotencyKey && `${idempotencyKey}${suffix}`;
    const instrument =
      setup_intent_id === undefined
        ? await callV2<{ id: string }>(call, 'payment-instruments.tokenize', { customer_id: hosted.actor.customerId, card }, derivedKey(KEY_SUFFIXES.tokenize))
        : await callV2<{ id: string }>(
            call,
            'payment-instruments.attach',
            { customer_id: hosted.actor.customerId, provider: 'stripe', setup_intent_id },
            derivedKey(KEY_SUFFIXES.attach),
          );
    return callV2(call, 'invoices.pay', { id: hosted.invoice.id, payment_instrument_id: instrument.id }, derivedKey(KEY_SUFFIXES.pay));
  },
};

/**
 * `POST /portal/api/hosted-invoices/{get,create-setup-intent,pay}` (docs/portal.md, "Hosted invoice pages"): public,
 * the signed token in the body is the only credential. As the dashboard's public routes, each
 * address takes a token of its bucket before any work, and requests another site's page makes
 * are refused (`Sec-Fetch-Site`). Answers are JSON, never cached, errors in the /v2 envelope.
 */
export function registerHostedInvoiceRoutes(app: FastifyInstance, deps: ContextDependencies): void {
  const throttlePublic = publicRouteThrottle();
  const clock = deps.now ?? (() => new Date());

  const throttleBeforeAnyWork = async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      throttlePublic(request.ip, clock());
    } catch (error) {
      reply.header('cache-control', 'no-store');
      return sendError(reply, toApiError(error, undefined));
    }
  };

  app.post('/portal/api/hosted-invoices/:action', { onRequest: throttleBeforeAnyWork }, async (request, reply) => {
    const { action } = request.params as { action: string };
    reply.header('cache-control', 'no-store');
    if (!Object.hasOwn(ACTIONS, action)) return sendError(reply, new ApiError('NOT_FOUND', `No endpoint POST /portal/api/hosted-invoices/${action}.`));
    const responseHeaders: Record<string, string> = {};
    let input: unknown;
    try {
      refuseCrossSite(sessionCredentialsOf(request));
      input = parseJsonBody(request.body);
      refuseUnstorableCharacters(input);
      const body = await ACTIONS[action]!({ deps, request, now: clock(), responseHeaders }, input);
      return reply.headers(responseHeaders).code(200).type('application/json').send(customerFacing(body));
    } catch (error) {
      const apiError = toApiError(error, input);
      if (apiError.code === 'INTERNAL') request.log.error({ err: error, action }, 'hosted invoice request failed');
      return sendError(reply.headers(responseHeaders), apiError);
    }
  });
}
