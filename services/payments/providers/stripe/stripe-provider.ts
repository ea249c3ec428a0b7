import type Stripe from 'stripe';
import { ApiError } from '../../../../domain/errors';
import { declineOf, needsAuthentication, outcomeOfPaymentIntent, outcomeOfRefund, type PaymentIntentOutcome } from '../../../../domain/stripe-outcomes';
import type { Database } from '../../../../prisma/client';
import {
  ProviderRequestMismatch,
  type ChargeRequest,
  type ChargeResult,
  type PaymentProvider,
  type ProcessedCharge,
  type RefundingProvider,
  type RefundRequest,
  type RefundResult,
} from '../provider';
import { recordedRequest, recordObject, recordRequest } from './books';
import { stripeConnectionOf, type StripeConnection } from './connection';

export const STRIPE_PROVIDER = 'stripe';

/**
 * A request whose answer did not come back is sent again under the same key this often, after
 * these pauses: Stripe answers a repeated key with the first request's response (for 24 hours),
 * so this learns the fate of the first rather than making a second.
 */
const RESEND_PAUSES_MS = [500, 2_000];

/** Our ids in every PaymentIntent's and Refund's metadata: how either side finds the other. */
const KEY_FIELD = 'bp_idempotency_key';

/**
 * The Stripe provider (docs/payments-stripe.md): charges with PaymentIntents confirmed at once
 * off-session, refunds with Refunds, each under the charge path's idempotency key, sent as
 * Stripe's `Idempotency-Key` and kept in its metadata. Its books on our side (`stripe_requests`)
 * record each request before it is sent, so a run that died mid-call is answered by Stripe's
 * object rather than by a second request:
 * - Stripe's id known (the payment recorded it, or the books hold a refund's): the object is read back;
 * - a row without it (the call was cut off before the payment recorded it): the object is looked
 *   for by its metadata; found, it is the answer; not found, the request is sent again under the
 *   same key, which Stripe answers with the first response if it had processed it;
 * - no row: nothing was ever sent under the key.
 */
export interface StripeProviderOptions {
  now?: () => Date;
  /** Where refusals of an account's key are reported; console unless given. */
  logger?: Pick<Console, 'warn' | 'error'>;
}

export function stripeProvider(db: Database, options: StripeProviderOptions = {}): PaymentProvider & RefundingProvider {
  const now = options.now ?? (() => new Date());
  const logger = options.logger ?? console;
  async function connectionOf(accountId: string): Promise<StripeConnection | null> {
    return stripeConnectionOf(db, accountId);
  }

  async function lookup(idempotencyKey: string, accountId: string, knownChargeId?: string | null): Promise<ProcessedCharge | null> {
    const connection = await connectionOf(accountId);
    if (!connection) return null;
    const known = knownChargeId?.startsWith('pi_') ? knownChargeId : null;
    const recorded = known ? null : await recordedRequest(db, accountId, idempotencyKey);
    if (!known && !recorded) return null;
    const intentId = known ?? recorded?.objectId;
    const intent = intentId
      ? await connection.client.paymentIntents.retrieve(intentId, { expand: ['latest_charge.balance_transaction'] })
      : await findIntent(connection.client, idempotencyKey);
    if (!intent) return null;
    if (!intentId) await recordObject(db, accountId, idempotencyKey, intent.id, now());
    return settledOutcome(connection.client, intent);
  }

  async function cancel(idempotencyKey: string, accountId: string, knownChargeId?: string | null): Promise<ProcessedCharge | null> {
    const connection = await connectionOf(accountId);
    const known = await lookup(idempotencyKey, accountId, knownChargeId);
    if (!connection || known?.outcome !== 'REQUIRES_ACTION') return known;
    try {
      return settledOutcome(connection.client, await connection.client.paymentIntents.cancel(known.providerChargeId));
    } catch (error) {
      // The customer completed (or failed) the authentication in between: its state is the answer.
      if ((error as StripeError).type !== 'StripeInvalidRequestError') throw error;
      return lookup(idempotencyKey, accountId, knownChargeId);
    }
  }

  return {
    name: STRIPE_PROVIDER,
    lookup,
    cancel,

    async charge(request: ChargeRequest): Promise<ChargeResult> {
      const { card } = request;
      if (card.provider !== STRIPE_PROVIDER || !card.providerReference || !card.providerCustomerReference) {
        // A sandbox token is nothing Stripe can charge: the cascade moves on.
        return { outcome: 'UNAVAILABLE' };
      }
      const connection = await connectionOf(request.accountId);
      if (!connection) {
        logger.warn('Stripe route without a Stripe connection: provider skipped', { accountId: request.accountId, paymentId: request.paymentId });
        return { outcome: 'UNAVAILABLE' };
      }
      const fresh = await recordRequest(db, { accountId: request.accountId, idempotencyKey: request.idempotencyKey, kind: 'CHARGE', amount: request.amount, currency: request.currency }, now());
      if (!fresh) {
        const recorded = await recordedRequest(db, request.accountId, request.idempotencyKey);
        if (recorded && (recorded.amount !== request.amount || recorded.currency !== request.currency)) {
          throw new ProviderRequestMismatch(STRIPE_PROVIDER, request.idempotencyKey);
        }
        const known = await lookup(request.idempotencyKey, request.accountId);
        if (known) return known;
      }
      const customer = card.providerCustomerReference;
      const paymentMethod = card.providerReference;
      const create = () =>
        connection.client.paymentIntents.create(
          {
            amount: request.amount,
            currency: request.currency.toLowerCase(),
            customer,
            payment_method: paymentMethod,
            off_session: true,
            confirm: true,
            metadata: {
              [KEY_FIELD]: request.idempotencyKey,
              bp_account_id: request.accountId,
              bp_payment_id: request.paymentId,
              ...(request.invoiceId ? { bp_invoice_id: request.invoiceId } : {}),
            },
          },
          { idempotencyKey: request.idempotencyKey },
        );
      for (let attempt = 0; ; attempt++) {
        try {
          // Stripe's id is not written to the books here: the charge path records it on the payment
          // in its next statement, and a run that dies before that finds the PaymentIntent by its
          // metadata. One statement fewer on every charge (docs/payments-stripe.md).
          return await settledOutcome(connection.client, await create());
        } catch (error) {
          const failure = chargeFailure(request, error as StripeError, logger);
          if (failure.outcome !== 'TIMEOUT') return failure;
          const pause = RESEND_PAUSES_MS[attempt];
          // Stripe may have charged: never "nothing happened", which would move the cascade on and
          // let a retry charge again. The charge path hands its claim back; whoever resumes it asks again.
          if (pause === undefined) {
            throw new ApiError('PROVIDER_UNAVAILABLE', `Stripe did not answer the charge under ${request.idempotencyKey}; it is asked again under the same key.`, {
              provider: STRIPE_PROVIDER,
              retryable: true,
            });
          }
          await new Promise((resolve) => setTimeout(resolve, pause));
        }
      }
    },

    async refund(request: RefundRequest): Promise<RefundResult> {
      const connection = await connectionOf(request.accountId);
      if (!connection) return { outcome: 'REJECTED', code: 'provider_unavailable', message: `Account ${request.accountId} has no Stripe connection.` };
      const { client } = connection;
      const fresh = await recordRequest(db, { accountId: request.accountId, idempotencyKey: request.idempotencyKey, kind: 'REFUND', amount: request.amount, currency: '' }, now());
      if (!fresh) {
        const recorded = await recordedRequest(db, request.accountId, request.idempotencyKey);
        if (recorded && recorded.amount !== request.amount) throw new ProviderRequestMismatch(STRIPE_PROVIDER, request.idempotencyKey, 'refund');
        if (recorded?.objectId) return outcomeOfRefund(await client.refunds.retrieve(recorded.objectId));
        const found = await findRefund(client, request.providerChargeId, request.idempotencyKey);
        if (found) {
          await recordObject(db, request.accountId, request.idempotencyKey, found.id, now());
          return outcomeOfRefund(found);
        }
      }
      try {
        const refund = await client.refunds.create(
          { payment_intent: request.providerChargeId, amount: request.amount, metadata: { [KEY_FIELD]: request.idempotencyKey, bp_account_id: request.accountId } },
          { idempotencyKey: request.idempotencyKey },
        );
        await recordObject(db, request.accountId, request.idempotencyKey, refund.id, now());
        return outcomeOfRefund(refund);
      } catch (error) {
        const failure = error as StripeError;
        if (failure.type === 'StripeIdempotencyError') throw new ProviderRequestMismatch(STRIPE_PROVIDER, request.idempotencyKey, 'refund');
        if (failure.type === 'StripeInvalidRequestError' && !stillRunning(failure)) {
          const exceeds = failure.code === 'charge_already_refunded' || /amount|greater|exceed/i.test(failure.message ?? '');
          return { outcome: 'REJECTED', code: exceeds ? 'refund_exceeds_charge' : 'charge_not_found', message: `Stripe: ${failure.message}` };
        }
        // Cut off or Stripe unwell: the refund stays PENDING and is asked again under its key.
        throw error;
      }
    },
  };

  /** A PaymentIntent created but never confirmed (cut off between the two on an emulator): confirmed now, once. */
  async function settledOutcome(client: Stripe, intent: Stripe.PaymentIntent): Promise<ProcessedCharge> {
    const outcome = outcomeOfPaymentIntent(factsOf(intent));
    if (outcome.outcome !== 'UNCONFIRMED') return outcome;
    const confirmed = await client.paymentIntents.confirm(intent.id);
    return processed(outcomeOfPaymentIntent(factsOf(confirmed)));
  }
}

type StripeError = Error & {
  type?: string;
  code?: string;
  decline_code?: string;
  statusCode?: number;
  payment_intent?: { id?: string } | null;
  raw?: { payment_intent?: { id?: string } | null; charge?: string };
};

/** A request Stripe refused or that did not come back. */
function chargeFailure(request: ChargeRequest, error: StripeError, logger: Pick<Console, 'error'>): ChargeResult {
  switch (error.type) {
    case 'StripeCardError': {
      const intent = error.payment_intent?.id ?? error.raw?.payment_intent?.id;
      if (intent && needsAuthentication(error)) return { outcome: 'REQUIRES_ACTION', providerChargeId: intent, nextActionUrl: null };
      return { ...declineOf(error), providerChargeId: intent ?? error.raw?.charge ?? request.idempotencyKey };
    }
    case 'StripeIdempotencyError':
      throw new ProviderRequestMismatch(STRIPE_PROVIDER, request.idempotencyKey);
    case 'StripeInvalidRequestError':
      // Another request under this key is still running at Stripe: its answer is unknown, not a refusal.
      if (stillRunning(error)) return { outcome: 'TIMEOUT' };
      // The card or customer is gone at Stripe (detached, deleted): no charge of this card can succeed.
      return { outcome: 'HARD_DECLINED', providerChargeId: request.idempotencyKey, declineCode: error.code ?? 'invalid_request', message: `Stripe refused the request: ${error.message}` };
    case 'StripeAuthenticationError':
    case 'StripePermissionError':
      logger.error('Stripe refused the account key: provider skipped', { accountId: request.accountId, paymentId: request.paymentId, type: error.type });
      return { outcome: 'UNAVAILABLE' };
    case 'StripeRateLimitError':
      return { outcome: 'UNAVAILABLE' };
    default:
      // Connection errors, timeouts and 5xx: Stripe may have processed it; the charge path asks the books.
      return { outcome: 'TIMEOUT' };
  }
}

/** Stripe's answer while a request under the same key is still being processed (409) or locked. */
function stillRunning(error: StripeError): boolean {
  return error.statusCode === 409 || error.code === 'idempotency_key_in_use' || error.code === 'lock_timeout';
}

function processed(outcome: PaymentIntentOutcome): ProcessedCharge {
  if (outcome.outcome === 'UNCONFIRMED') return { outcome: 'PROCESSING', providerChargeId: outcome.providerChargeId };
  return outcome;
}

function factsOf(intent: Stripe.PaymentIntent) {
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  const balance = charge && typeof charge.balance_transaction === 'object' ? charge.balance_transaction : null;
  const next = intent.next_action;
  return {
    id: intent.id,
    status: intent.status,
    fee: balance?.fee ?? null,
    nextActionUrl: next?.redirect_to_url?.url ?? (next?.use_stripe_sdk as { stripe_js?: string } | undefined)?.stripe_js ?? null,
    lastPaymentError: intent.last_payment_error ?? null,
  };
}

/**
 * The PaymentIntent made under a key whose request was cut off: Stripe's search by metadata; an
 * API without search (an emulator) is listed page by page instead.
 */
async function findIntent(client: Stripe, idempotencyKey: string): Promise<Stripe.PaymentIntent | null> {
  try {
    const found = await client.paymentIntents.search({ query: `metadata['${KEY_FIELD}']:'${idempotencyKey}'`, limit: 1 });
    return found.data[0] ?? null;
  } catch (error) {
    if ((error as StripeError).statusCode !== 404) throw error;
  }
  for await (const intent of client.paymentIntents.list({ limit: 100 })) {
    if (intent.metadata?.[KEY_FIELD] === idempotencyKey) return intent;
  }
  return null;
}

/** The Refund made under a key whose request was cut off, among the PaymentIntent's refunds. */
async function findRefund(client: Stripe, paymentIntentId: string, idempotencyKey: string): Promise<Stripe.Refund | null> {
  for await (const refund of client.refunds.list({ payment_intent: paymentIntentId, limit: 100 })) {
    if (refund.metadata?.[KEY_FIELD] === idempotencyKey) return refund;
  }
  return null;
}
