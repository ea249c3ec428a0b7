import { isIP } from 'node:net';

/** Section 2.5: what an antifraud list matches on. */
export const ANTIFRAUD_FIELDS = ['IP_ADDRESS', 'CUSTOMER_EMAIL', 'CUSTOMER_ID', 'CARDHOLDER', 'CARD_ID'] as const;
export type AntifraudField = (typeof ANTIFRAUD_FIELDS)[number];

/** A list either lets matching payments through whatever blocks them, or blocks them. */
export const ANTIFRAUD_ACTIONS = ['ALLOW', 'BLOCK'] as const;
export type AntifraudAction = (typeof ANTIFRAUD_ACTIONS)[number];

/**
 * A card fingerprint as a CARD_ID item may hold it: what `cardFingerprint` (domain/card-fingerprint.ts)
 * gives and payment-instruments show, the base64url HMAC-SHA256 of the card number, 43 characters;
 * or, for a card Stripe holds, Stripe's fingerprint as the instrument shows it (domain/stripe-cards.ts).
 */
export const CARD_FINGERPRINT = /^(?:[A-Za-z0-9_-]{43}|stripe:[A-Za-z0-9_]{1,250})$/;

/**
 * One IPv6 address has many spellings (case, zero compression); the WHATWG URL serialiser
 * picks the canonical one, so an item and a payment written differently still match. A
 * dual-stack server reports IPv4 clients as IPv4-mapped addresses (`::ffff:1.2.3.4`): those
 * become the plain IPv4 address, so an IPv4 item matches them.
 */
function canonicalIp(address: string): string {
  if (isIP(address) !== 6) return address;
  try {
    const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
    const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
    if (!mapped) return canonical;
    const [high, low] = [parseInt(mapped[1]!, 16), parseInt(mapped[2]!, 16)];
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  } catch {
    // Zone ids (`fe80::1%eth0`) are valid for isIP but not in a URL; case is all that can differ then.
    return address.toLowerCase();
  }
}

/**
 * How a value is compared: e-mails and cardholder names case- and space-insensitively, IPv6
 * addresses in canonical form, the rest exactly. Items are stored normalised, and a payment's
 * values are normalised the same way.
 */
export function normaliseFieldValue(field: AntifraudField, value: string): string {
  const trimmed = value.trim();
  switch (field) {
    case 'CUSTOMER_EMAIL':
      return trimmed.toLowerCase();
    case 'CARDHOLDER':
      return trimmed.replace(/\s+/g, ' ').toUpperCase();
    case 'IP_ADDRESS':
      return canonicalIp(trimmed);
    default:
      return trimmed;
  }
}
