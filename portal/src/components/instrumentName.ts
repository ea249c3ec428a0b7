import type { PaymentInstrument } from '../api/types';
import type { Messages } from '../i18n/en';

/** `Visa ending in 4242`. */
export function instrumentName(t: Messages, instrument: PaymentInstrument): string {
  return t.instruments.describe(t.status.cardBrand[instrument.card.brand], instrument.card.last4);
}
