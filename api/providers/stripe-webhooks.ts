import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../domain/errors';
import { applyStripeEvent } from '../../services/payments/stripe-events/apply';
import { receiveStripeEvent } from '../../services/payments/stripe-events/receive';
import type { StripeEventKey } from '../../services/payments/stripe-events/stored-events';
import type { ContextDependencies } from '../context';
import { sendError } from '../errors/send-error';

export const STRIPE_WEBHOOK_PATH = '/providers/stripe/webhooks/:account';


/**
 * `POST /providers/stripe/webhooks/{account}` (docs/payments-stripe.md, "Webhooks"): no API key,
 * Stripe's signature instead. In a Fastify scope of its own, where the body stays the bytes
 * received, since the signature covers exactly those. Stripe is answered once the event is
 * stored; the event is applied after the answer, in this process, and the payment sweeper applies
 * any this process did not. Closing the server waits for the applications under way.
 */
export function registerStripeWebhookRoutes(app: FastifyInstance, deps: ContextDependencies): void {
  const now = deps.now ?? (() => new Date());
  const applying = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...applying]);
  });

  function applyAfterAnswer(request: FastifyRequest, key: StripeEventKey): void {
    const application = applyStripeEvent({ db: deps.db, temporal: deps.temporal, now }, key).then(
      (applied) => {
        if (applied) request.log.info({ account_id: key.accountId, event_id: key.eventId, type: applied.type, outcome: applied.outcome }, 'Stripe event applied');
      },
      (error: unknown) => request.log.warn({ account_id: key.accountId, event_id: key.eventId, err: error }, 'Stripe event not applied; the payment sweeper retries it'),
    );
    applying.add(application);
    void application.finally(() => applying.delete(application));
  }

  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

    scope.post<{ Params: { account: string } }>(STRIPE_WEBHOOK_PATH, async (request, reply) => {
      const signature = request.headers['stripe-signature'];
      let received;
      try {
        received = await receiveStripeEvent(
          deps.db,
          {
            accountId: request.params.account,
            body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
            signature: Array.isArray(signature) ? signature[0] : signature,
          },
          now(),
        );
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        // Neither the header nor the body: the message says which check failed.
        request.log.warn({ account_id: request.params.account, code: error.code, reason: error.message }, 'Stripe webhook refused');
        return sendError(reply, error);
      }
      reply.code(200).type('application/json').send({ received: true });
      if (received.stored) applyAfterAnswer(request, received);
      return reply;
    });
  });
}
