import type { Client } from '@temporalio/client';
import { endOfExpiryMonth } from '../../domain/cards';
import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import { startPaymentInstrumentExpiry } from '../workflows/payment-instrument-expiry';
import { insertCard, serializePaymentInstrument, type NewCard } from './records';

/**
 * The end of the card's expiry month, when its instrument expires; a card whose month has ended
 * is 422 CARD_EXPIRED (a card expiring this month is accepted). tokenize and attach both ask it.
 */
export function expiryOfCard(card: { expMonth: number; expYear: number }, now: Date): Date {
  const expiresAt = endOfExpiryMonth(card.expMonth, card.expYear);
  if (expiresAt <= now) {
    throw new ApiError('CARD_EXPIRED', `The card expired at the end of ${card.expYear}-${String(card.expMonth).padStart(2, '0')}.`, {
      exp_month: card.expMonth,
      exp_year: card.expYear,
    });
  }
  return expiresAt;
}

/**
 * A card becomes an ACTIVE instrument in the caller's transaction, whoever holds it: the row,
 * the workflow that expires it at `expiresAt`, and PaymentInstrumentCreated.
 */
export async function saveCard(temporal: Client, tx: Prisma.TransactionClient, card: NewCard, expiresAt: Date) {
  const row = await insertCard(tx, card);
  // Started before the commit, as api-keys/rotate does: a crash after the commit cannot
  // lose the timer, and if the commit fails the workflow finds no ACTIVE instrument.
  await startPaymentInstrumentExpiry(temporal, { id: row.id, accountId: card.accountId, channelId: row.channelId, customerId: row.customerId }, expiresAt);
  const instrument = serializePaymentInstrument(row);
  await recordEvent(tx, {
    accountId: card.accountId,
    channelId: row.channelId,
    name: 'PaymentInstrumentCreated',
    data: { payment_instrument: instrument },
    occurredAt: card.now,
  });
  return instrument;
}
