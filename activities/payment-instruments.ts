import type { ActivityDependencies } from '.';
import { paymentInstrumentSelect, serializePaymentInstrument } from '../api/payment-instruments/schemas';
import { recordEvent } from '../prisma/outbox';

export interface ExpirePaymentInstrumentInput {
  paymentInstrumentId: string;
  /** The end of the expiry month (ISO 8601): the moment recorded as `expired_at`. */
  expiresAt: string;
}

export function createPaymentInstrumentActivities({ db }: ActivityDependencies) {
  return {
    /**
     * ACTIVE → EXPIRED with its PaymentInstrumentExpired event, in one transaction. Anything
     * else is left alone: a revoked instrument, a retry after the first attempt committed, or
     * an instrument whose tokenize rolled back after starting the workflow (no row at all).
     */
    async expirePaymentInstrument({ paymentInstrumentId, expiresAt }: ExpirePaymentInstrumentInput): Promise<{ expired: boolean }> {
      return db.$transaction(async (tx) => {
        const expiredAt = new Date(expiresAt);
        const { count } = await tx.paymentInstrument.updateMany({
          where: { id: paymentInstrumentId, status: 'ACTIVE' },
          data: { status: 'EXPIRED', expiredAt, updatedAt: new Date() },
        });
        if (count === 0) return { expired: false };
        const row = await tx.paymentInstrument.findUniqueOrThrow({ where: { id: paymentInstrumentId }, select: paymentInstrumentSelect });
        await recordEvent(tx, {
          accountId: row.accountId,
          channelId: row.channelId,
          name: 'PaymentInstrumentExpired',
          data: { payment_instrument: serializePaymentInstrument(row) },
          occurredAt: expiredAt,
        });
        return { expired: true };
      });
    },
  };
}
