import { ApiError } from '../../domain/errors';
import type { Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import { clearDefaultInstrument } from '../customers/default-instrument';
import type { Scope } from '../scope';
import { revokeInstrument, serializePaymentInstrument, visibleInstrument } from './records';

/**
 * payment-instruments/revoke in the caller's transaction: ACTIVE → REVOKED for good, with
 * PaymentInstrumentRevoked, and no longer the customer's default; any other status is 422
 * INCOMPATIBLE_STATUS.
 */
export async function revokePaymentInstrument(deps: { now: () => Date }, tx: Prisma.TransactionClient, scope: Scope, instrumentId: string) {
  await visibleInstrument(tx, scope, instrumentId);
  const now = deps.now();
  const { revoked, row } = await revokeInstrument(tx, instrumentId, now);
  if (!revoked) {
    throw new ApiError('INCOMPATIBLE_STATUS', `Payment instrument ${instrumentId} is ${row.status}; only an ACTIVE one can be revoked.`, {
      status: row.status,
    });
  }
  const instrument = serializePaymentInstrument(row);
  await recordEvent(tx, {
    accountId: scope.accountId,
    channelId: row.channelId,
    name: 'PaymentInstrumentRevoked',
    data: { payment_instrument: instrument },
    occurredAt: now,
  });
  await clearDefaultInstrument(tx, row, now);
  return instrument;
}
