import type { CardBrand } from '../../domain/cards';
import { formatDateTime } from '../../domain/datetime';
import type { PaymentInstrumentStatus } from '../../domain/payment-instrument-status';

export const paymentInstrumentSelect = {
  id: true,
  accountId: true,
  channelId: true,
  customerId: true,
  brand: true,
  last4: true,
  expMonth: true,
  expYear: true,
  cardholderName: true,
  fingerprint: true,
  status: true,
  revokedAt: true,
  expiredAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

export interface PaymentInstrumentRow {
  id: string;
  channelId: string;
  customerId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  cardholderName: string | null;
  fingerprint: string;
  status: string;
  revokedAt: Date | null;
  expiredAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The record as the API and the PaymentInstrument* events show it (api/payment-instruments/schemas.ts). */
export function serializePaymentInstrument(row: PaymentInstrumentRow) {
  return {
    id: row.id,
    customer_id: row.customerId,
    channel_id: row.channelId,
    type: 'CARD' as const,
    card: {
      brand: row.brand as CardBrand,
      last4: row.last4,
      exp_month: row.expMonth,
      exp_year: row.expYear,
      ...(row.cardholderName !== null ? { cardholder_name: row.cardholderName } : {}),
      fingerprint: row.fingerprint,
    },
    status: row.status as PaymentInstrumentStatus,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
    ...(row.revokedAt ? { revoked_at: formatDateTime(row.revokedAt) } : {}),
    ...(row.expiredAt ? { expired_at: formatDateTime(row.expiredAt) } : {}),
  };
}
