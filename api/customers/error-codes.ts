import type { ResourceErrorCodes } from '../openapi/operation-types';

const INVALID_DEFAULT_PAYMENT_INSTRUMENT =
  '`configuration.default_payment_instrument_id` is not an instrument of this customer, or not ACTIVE (always on create: a new customer has none); docs/customers.md.';
const INVALID_TAX_REGISTRATION_VALIDATION_SOURCE =
  'A tax registration validation set by the merchant has a source other than `MANUAL`; only the platform sets `VIES`. `context.field`, `context.source`.';

const update = {
  INVALID_DEFAULT_PAYMENT_INSTRUMENT,
  INVALID_TAX_REGISTRATION_VALIDATION_SOURCE,
  INVALID_TAX_REGISTRATION_VALIDATION_UPDATE:
    'The request changes a settled validation (source `VIES`, or status `VERIFIED`); leave it out or send it unchanged. `context.field`.',
};

export const customerErrorCodes = {
  create: {
    CHANNEL_NOT_FOUND: '`channel_id` names no channel of the caller’s account; `context.channel_id`.',
    INVALID_DEFAULT_PAYMENT_INSTRUMENT,
    INVALID_TAX_REGISTRATION_VALIDATION_SOURCE,
  },
  update,
  patch: update,
} satisfies ResourceErrorCodes<'customers'>;
