import type { ResourceErrorCodes } from '../openapi/operation-types';

export const paymentInstrumentErrorCodes = {
  tokenize: {
    CARD_EXPIRED: 'The card’s expiry month has ended; `context.exp_month`, `context.exp_year`.',
    TOKENIZE_NOT_ALLOWED: 'The account is connected to Stripe: card numbers must not reach this server; save cards with payment-instruments/attach (docs/payments-stripe.md). `context.provider`.',
  },
  attach: {
    PROVIDER_NOT_CONNECTED: 'The account is not connected to the provider named; `context.provider`.',
    PROVIDER_CREDENTIALS_REJECTED: 'Stripe refused the connected secret key (revoked, or lacking permission): connect again. `context.provider`, `context.reason`.',
    PROVIDER_REFERENCE_NOT_FOUND: 'The connected Stripe account knows no such PaymentMethod or SetupIntent; `context.field`, `context.id`.',
    SETUP_INTENT_NOT_SUCCEEDED: 'The SetupIntent has not `succeeded` (the customer has not finished, or it failed); `context.status`.',
    PAYMENT_METHOD_NOT_CARD: 'The PaymentMethod is not a card; `context.type`.',
    PAYMENT_METHOD_OF_ANOTHER_CUSTOMER: 'The PaymentMethod is attached to another Stripe customer than this customer’s; `context.payment_method_id`.',
    CARD_DECLINED: 'Stripe declined the card when attaching it; `context.decline_code`.',
    CARD_EXPIRED: 'The card’s expiry month has ended; `context.exp_month`, `context.exp_year`.',
  },
  revoke: {
    INCOMPATIBLE_STATUS: 'The instrument is not ACTIVE (already REVOKED or EXPIRED); `context.status`.',
  },
} satisfies ResourceErrorCodes<'payment-instruments'>;
