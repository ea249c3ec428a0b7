import type { CardBrand } from './cards';

/**
 * A card Stripe holds, as our instruments record it (docs/payment-instruments.md, "attach"). Stripe
 * names brands in lower case and knows more of them than routing does (`cartes_bancaires`,
 * `unionpay`, `eftpos_au`…): those are UNKNOWN here, as a number of an unknown range is for the sandbox.
 */
const BRANDS: Readonly<Record<string, CardBrand>> = {
  visa: 'VISA',
  mastercard: 'MASTERCARD',
  amex: 'AMEX',
  discover: 'DISCOVER',
  jcb: 'JCB',
  diners: 'DINERS',
};

export function brandOfStripeCard(brand: string): CardBrand {
  return BRANDS[brand] ?? 'UNKNOWN';
}

/**
 * Stripe's fingerprint of the number, prefixed so it never equals one of ours: it is Stripe's
 * hash, the same within one Stripe account, not our keyed HMAC (an antifraud `CARD_ID` item made
 * from a sandbox fingerprint does not match the same card held by Stripe).
 */
export function stripeCardFingerprint(fingerprint: string): string {
  return `stripe:${fingerprint}`;
}
