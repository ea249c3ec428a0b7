import type { Database } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import { clearDefaultInstrument } from '../customers/default-instrument';
import { paymentInstrumentSelect, serializePaymentInstrument } from './records';

/**
 * ACTIVE → EXPIRED with its PaymentInstrumentExpired event, in one transaction, `expiredAt` being
 * the end of the expiry month; the instrument stops being the customer's default. Anything else is left alone: a revoked instrument, a retry after
 * the first attempt committed, or an instrument whose tokenize rolled back after starting the
 * workflow (no row at all). Returns whether it expired the instrument.
 */
export function expirePaymentInstrument({ db }: { db: Database }, paymentInstrumentId: string, expiredAt: Date): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const { count } = await tx.paymentInstrument.updateMany({
      where: { id: paymentInstrumentId, status: 'ACTIVE' },
      data: { status: 'EXPIRED', expiredAt, updatedAt: new Date() },
    });
    if (count === 0) return false;
    const row = await tx.paymentInstrument.findUniqueOrThrow({ where: { id: paymentInstrumentId }, select: paymentInstrumentSelect });
    await recordEvent(tx, {
      accountId: row.accountId,
      channelId: row.channelId,
      name: 'PaymentInstrumentExpired',
      data: { payment_instrument: serializePaymentInstrument(row) },
      occurredAt: expiredAt,
    });
    await clearDefaultInstrument(tx, row, new Date());
    return true;
  });
}
