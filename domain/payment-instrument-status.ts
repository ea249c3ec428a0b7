export const PAYMENT_INSTRUMENT_STATUSES = ['ACTIVE', 'REVOKED', 'EXPIRED'] as const;
export type PaymentInstrumentStatus = (typeof PAYMENT_INSTRUMENT_STATUSES)[number];
