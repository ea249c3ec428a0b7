import type { Client } from '@temporalio/client';
import { brandOf, endOfExpiryMonth, scenarioOf } from '../../domain/cards';
import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import { visibleCustomer } from '../customers/rules';
import type { Scope } from '../scope';
import { startPaymentInstrumentExpiry } from '../workflows/payment-instrument-expiry';
import { insertCard, serializePaymentInstrument } from './records';

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
 * payment-instruments/tokenize in the caller's transaction: an expired card is refused with
 * 422 CARD_EXPIRED; otherwise an ACTIVE instrument of the customer, the workflow that expires
 * it at the end of its expiry month, and PaymentInstrumentCreated.
 */
export async function tokenizeCard(deps: { now: () => Date; temporal: Client }, tx: Prisma.TransactionClient, scope: Scope, card: CardToTokenize) {
  const now = deps.now();
  const customer = await visibleCustomer(tx, scope, card.customerId);
  const expiresAt = endOfExpiryMonth(card.expMonth, card.expYear);
  if (expiresAt <= now) {
    throw new ApiError('CARD_EXPIRED', `The card expired at the end of ${card.expYear}-${String(card.expMonth).padStart(2, '0')}.`, {
      exp_month: card.expMonth,
      exp_year: card.expYear,
    });
  }
  const row = await insertCard(tx, {
    accountId: scope.accountId,
    channelId: customer.channelId,
    customerId: customer.id,
    brand: brandOf(card.number),
    last4: card.number.slice(-4),
    expMonth: card.expMonth,
    expYear: card.expYear,
    cardholderName: card.cardholderName,
    fingerprint: card.fingerprint,
    sandboxScenario: scenarioOf(card.number),
    now,
  });
  // Started before the commit, as api-keys/rotate does: a crash after the commit cannot
  // lose the timer, and if the commit fails the workflow finds no ACTIVE instrument.
  await startPaymentInstrumentExpiry(deps.temporal, { id: row.id, accountId: scope.accountId, channelId: customer.channelId, customerId: customer.id }, expiresAt);
  const instrument = serializePaymentInstrument(row);
  await recordEvent(tx, {
    accountId: scope.accountId,
    channelId: row.channelId,
    name: 'PaymentInstrumentCreated',
    data: { payment_instrument: instrument },
    occurredAt: now,
  });
  return instrument;
}
