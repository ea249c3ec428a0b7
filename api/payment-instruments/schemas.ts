import { z } from 'zod';
import { CARD_BRANDS } from '../../domain/cards';
import { formatDateTime } from '../../domain/datetime';
import { dateTime, prefixedId } from '../common/schemas';

export const PAYMENT_INSTRUMENT_STATUSES = ['ACTIVE', 'REVOKED', 'EXPIRED'] as const;
export type PaymentInstrumentStatus = (typeof PAYMENT_INSTRUMENT_STATUSES)[number];

export const paymentInstrumentId = prefixedId('paymentInstrument');
export const paymentInstrumentStatus = z.enum(PAYMENT_INSTRUMENT_STATUSES);
export const cardBrand = z.enum(CARD_BRANDS);

/** The payment instrument record (section 2.10 leaves it open; docs/payment-instruments.md). */
export const paymentInstrumentObject = z
  .object({
    id: z.string(),
    customer_id: z.string(),
    channel_id: z.string().meta({ description: 'The channel of the customer, where the instrument lives.' }),
    type: z.literal('CARD'),
    card: z.object({
      brand: cardBrand,
      last4: z.string(),
      exp_month: z.number().int(),
      exp_year: z.number().int(),
      cardholder_name: z.string().optional(),
      fingerprint: z.string().meta({ description: 'The same card number gives the same fingerprint within this account.' }),
    }),
    status: paymentInstrumentStatus,
    created_at: dateTime,
    updated_at: dateTime,
    revoked_at: dateTime.optional(),
    expired_at: dateTime.optional().meta({ description: 'The end of the expiry month, when the card stopped being chargeable.' }),
  })
  .meta({ id: 'PaymentInstrument' });

export type PaymentInstrumentObject = z.infer<typeof paymentInstrumentObject>;

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

export function serializePaymentInstrument(row: PaymentInstrumentRow): PaymentInstrumentObject {
  return {
    id: row.id,
    customer_id: row.customerId,
    channel_id: row.channelId,
    type: 'CARD',
    card: {
      brand: row.brand as PaymentInstrumentObject['card']['brand'],
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
