import type { Client } from '@temporalio/client';
import { brandOf, scenarioOf } from '../../domain/cards';
import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { visibleCustomer } from '../customers/rules';
import type { Scope } from '../scope';
import { expiryOfCard, saveCard } from './save-card';

/**
 * A card as the transport hands it over: `number` already reduced to its digits (and
 * Luhn-checked), `fingerprint` keyed with the account's fingerprint key.
 */
export interface CardToTokenize {
  customerId: string;
  number: string;
  expMonth: number;
  expYear: number;
  cardholderName: string | null;
  fingerprint: string;
}

/**
 * payment-instruments/tokenize in the caller's transaction: an account connected to Stripe is
 * refused with 422 TOKENIZE_NOT_ALLOWED, an expired card with 422 CARD_EXPIRED; otherwise an
 * ACTIVE instrument of the customer, the workflow that expires it at the end of its expiry month,
 * and PaymentInstrumentCreated.
 */
export async function tokenizeCard(deps: { now: () => Date; temporal: Client }, tx: Prisma.TransactionClient, scope: Scope, card: CardToTokenize) {
  await refuseWhenStripeHoldsCards(tx, scope.accountId);
  const now = deps.now();
  const customer = await visibleCustomer(tx, scope, card.customerId);
  const expiresAt = expiryOfCard(card, now);
  return saveCard(
    deps.temporal,
    tx,
    {
      accountId: scope.accountId,
      channelId: customer.channelId,
      customerId: customer.id,
      brand: brandOf(card.number),
      last4: card.number.slice(-4),
      expMonth: card.expMonth,
      expYear: card.expYear,
      cardholderName: card.cardholderName,
      fingerprint: card.fingerprint,
      custody: { sandboxScenario: scenarioOf(card.number) },
      now,
    },
    expiresAt,
  );
}

/**
 * A card of an account connected to Stripe is Stripe's to hold: its number must reach Stripe from
 * the customer's browser, never our server, and a sandbox card there could not be charged by
 * Stripe anyway (docs/payments-stripe.md, "Saving a card: the front-end flow").
 */
async function refuseWhenStripeHoldsCards(tx: Prisma.TransactionClient, accountId: string) {
  const connection = await tx.stripeConnection.findUnique({ where: { accountId }, select: { accountId: true } });
  if (connection) {
    throw new ApiError(
      'TOKENIZE_NOT_ALLOWED',
      'This account is connected to Stripe: save cards with payment-instruments/attach from a Stripe PaymentMethod or SetupIntent, never by number.',
      { provider: 'stripe' },
    );
  }
}
