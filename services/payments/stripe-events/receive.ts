import type Stripe from 'stripe';
import { ApiError } from '../../../domain/errors';
import type { Database, Prisma } from '../../../prisma/client';
import { stripeConnectionOf } from '../providers/stripe/connection';
import { storeStripeEvent, type StripeEventKey } from './stored-events';

/** Stripe's own default: a signature older than this is a replay, whatever its bytes. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export interface StripeDelivery {
  accountId: string;
  /** The body exactly as received: the signature covers these bytes. */
  body: Buffer;
  signature: string | undefined;
}

/**
 * One delivery of Stripe's webhook to an account (docs/payments-stripe.md, "Webhooks"): refused
 * 404 when the account has no Stripe connection, 400 when `Stripe-Signature` is missing, does not
 * match the connection's signing secret or is older than 5 minutes; otherwise the event is stored
 * once. Nothing else happens here, so Stripe is answered at once: applying it comes after.
 */
export async function receiveStripeEvent(db: Database, delivery: StripeDelivery, now: Date): Promise<StripeEventKey & { stored: boolean }> {
  // Asked of the table first: anyone may name any account here, and the opened connections are
  // kept per account named, so only a connected account's is opened and kept.
  const connected = await db.stripeConnection.findUnique({ where: { accountId: delivery.accountId }, select: { accountId: true } });
  const connection = connected ? await stripeConnectionOf(db, delivery.accountId) : null;
  if (!connection) throw new ApiError('NOT_FOUND', `Account ${delivery.accountId} has no Stripe connection.`);
  if (!delivery.signature) throw signatureRefusal('REQUIRED', 'The Stripe-Signature header is missing.');
  let event: Stripe.Event;
  try {
    event = connection.client.webhooks.constructEvent(delivery.body, delivery.signature, connection.webhookSecret, SIGNATURE_TOLERANCE_SECONDS, undefined, now.getTime());
  } catch (error) {
    // The SDK's error holds the header and the payload: only its kind is kept.
    if ((error as { type?: string }).type !== 'StripeSignatureVerificationError') {
      throw ApiError.validation({ body: { type: 'FORMAT', message: 'The signed body is not a Stripe event.' } }, 'The request body is not a Stripe event.');
    }
    if (/tolerance/i.test((error as Error).message)) {
      throw signatureRefusal('INVALID', `The Stripe-Signature timestamp is more than ${SIGNATURE_TOLERANCE_SECONDS} s old: a replayed delivery.`);
    }
    throw signatureRefusal('INVALID', "The Stripe-Signature does not match this body under the account's webhook signing secret.");
  }
  if (typeof event !== 'object' || event === null || typeof event.id !== 'string' || typeof event.type !== 'string') {
    throw ApiError.validation({ body: { type: 'FORMAT', message: 'The signed body is not a Stripe event.' } }, 'The request body is not a Stripe event.');
  }
  const object = event.data?.object as { id?: unknown } | undefined;
  const key = { accountId: delivery.accountId, eventId: event.id };
  const stored = await storeStripeEvent(
    db,
    { ...key, type: event.type, objectId: typeof object?.id === 'string' ? object.id : null, payload: event as unknown as Prisma.InputJsonValue },
    now,
  );
  return { ...key, stored };
}

function signatureRefusal(type: 'REQUIRED' | 'INVALID', message: string): ApiError {
  return ApiError.validation({ 'Stripe-Signature': { type, message } }, message);
}
