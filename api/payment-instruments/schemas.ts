import { z } from 'zod';
import { CARD_BRANDS } from '../../domain/cards';
import { PAYMENT_INSTRUMENT_STATUSES } from '../../domain/payment-instrument-status';
import { dateTime, prefixedId } from '../common/schemas';


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
      fingerprint: z.string().meta({
        description:
          'The same card number gives the same fingerprint within this account. A card Stripe holds has Stripe’s fingerprint, `stripe:…`: the same card within the connected Stripe account.',
      }),
    }),
    provider: z.string().optional().meta({ description: 'The provider holding the card (`stripe`); absent for a sandbox card.' }),
    provider_reference: z.string().optional().meta({ description: 'The provider’s id of the card: a Stripe PaymentMethod (`pm_…`).' }),
    status: paymentInstrumentStatus,
    created_at: dateTime,
    updated_at: dateTime,
    revoked_at: dateTime.optional(),
    expired_at: dateTime.optional().meta({ description: 'The end of the expiry month, when the card stopped being chargeable.' }),
  })
  .meta({ id: 'PaymentInstrument' });

export type PaymentInstrumentObject = z.infer<typeof paymentInstrumentObject>;
