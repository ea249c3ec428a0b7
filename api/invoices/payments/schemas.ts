import { z } from 'zod';
import { dateTime } from '../../common/schemas';

export const paymentObject = z
  .object({
    id: z.string().optional().meta({ description: 'The payment (`pay_…`); absent when there was no instrument to charge.' }),
    status: z.enum(['SUCCEEDED', 'DECLINED', 'FAILED', 'REQUIRES_ACTION', 'PENDING']).meta({
      description: 'REQUIRES_ACTION: the customer must authenticate at `next_action_url`; PENDING: the provider decides later (docs/payments-stripe.md).',
    }),
    amount: z.number().int().meta({ description: 'Minor units charged or attempted: the amount due when the charge started.' }),
    currency: z.string(),
    decline_code: z.string().optional().meta({ description: 'docs/payments.md, "Statuses and decline codes".' }),
    decline_message: z.string().optional(),
    retryable: z.boolean().meta({ description: 'Whether paying again later may succeed.' }),
    provider: z.string().optional(),
    provider_reference: z.string().optional().meta({ description: "The provider's id of the charge (a Stripe PaymentIntent `pi_…`)." }),
    next_action_url: z.string().optional().meta({ description: 'Where the customer completes authentication, while REQUIRES_ACTION.' }),
    payment_instrument_id: z.string().optional(),
  })
  .meta({ id: 'InvoicePayment' });

export const refundObject = z
  .object({
    id: z.string(),
    invoice_id: z.string(),
    payment_id: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    reason: z.string().optional(),
    status: z.enum(['SUCCEEDED', 'FAILED', 'PENDING']).meta({ description: 'PENDING: the provider finishes the refund later (docs/payments-stripe.md).' }),
    provider: z.string(),
    created_at: dateTime,
  })
  .meta({ id: 'InvoiceRefund' });

export type PaymentObject = z.infer<typeof paymentObject>;
export type RefundObject = z.infer<typeof refundObject>;
