import type { ResourceErrorCodes } from '../openapi/operation-types';

export const paymentInstrumentErrorCodes = {
  tokenize: {
    CARD_EXPIRED: 'The card’s expiry month has ended; `context.exp_month`, `context.exp_year`.',
  },
  revoke: {
    INCOMPATIBLE_STATUS: 'The instrument is not ACTIVE (already REVOKED or EXPIRED); `context.status`.',
  },
} satisfies ResourceErrorCodes<'payment-instruments'>;
