/** Section 2.5: what an antifraud list matches on. */
export const ANTIFRAUD_FIELDS = ['IP_ADDRESS', 'CUSTOMER_EMAIL', 'CUSTOMER_ID', 'CARDHOLDER', 'CARD_ID'] as const;
export type AntifraudField = (typeof ANTIFRAUD_FIELDS)[number];

/** A list either lets matching payments through whatever blocks them, or blocks them. */
export const ANTIFRAUD_ACTIONS = ['ALLOW', 'BLOCK'] as const;
export type AntifraudAction = (typeof ANTIFRAUD_ACTIONS)[number];

/**
 * How a value is compared: e-mails and cardholder names case- and space-insensitively, the
 * rest exactly. Items are stored normalised, and a payment's values are normalised the same way.
 */
export function normaliseFieldValue(field: AntifraudField, value: string): string {
  const trimmed = value.trim();
  switch (field) {
    case 'CUSTOMER_EMAIL':
      return trimmed.toLowerCase();
    case 'CARDHOLDER':
      return trimmed.replace(/\s+/g, ' ').toUpperCase();
    default:
      return trimmed;
  }
}
