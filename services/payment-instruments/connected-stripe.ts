import { ApiError } from '../../domain/errors';
import type { Database } from '../../prisma/client';
import { stripeConnectionOf, type StripeConnection } from '../payments/providers/stripe/connection';

/** The account's Stripe connection, or 422 PROVIDER_NOT_CONNECTED: cards held at Stripe need one. */
export async function connectedStripe(db: Database, accountId: string): Promise<StripeConnection> {
  const connection = await stripeConnectionOf(db, accountId);
  if (!connection) {
    throw new ApiError('PROVIDER_NOT_CONNECTED', 'This account is not connected to Stripe: an operator or an admin connects it first (docs/payments-stripe.md).', {
      provider: 'stripe',
    });
  }
  return connection;
}
