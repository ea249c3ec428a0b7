import { z } from 'zod';
import { BALANCE_TRANSACTION_TYPES, MAX_BALANCE_MAGNITUDE } from '../../domain/balance-transactions';
import { dateTime, prefixedId } from '../common/schemas';
import { currency } from '../customers/schemas';

export const balanceTransactionType = z.enum(BALANCE_TRANSACTION_TYPES);

export const balanceTransactionObject = z
  .object({
    id: z.string().meta({ description: 'Prefix `cbtx_`.' }),
    customer_id: z.string(),
    currency: z.string(),
    amount: z.number().int().meta({ description: 'Minor units: negative is credit the merchant owes the customer, positive a debit the customer owes.' }),
    type: balanceTransactionType,
    description: z.string().optional(),
    invoice_id: z.string().optional().meta({ description: 'The invoice it came from (APPLIED_TO_INVOICE, CREDITED_FROM_INVOICE).' }),
    credit_note_id: z.string().optional().meta({ description: 'The credit note it came from (CREDIT_NOTE).' }),
    ending_balance: z.number().int().meta({ description: 'The customer’s balance in this currency right after it.' }),
    created_at: dateTime,
  })
  .meta({ id: 'CustomerBalanceTransaction' });

export const customerIdField = prefixedId('customer');

export const balanceAdjustmentAmount = z
  .number()
  .int()
  .min(-MAX_BALANCE_MAGNITUDE)
  .max(MAX_BALANCE_MAGNITUDE)
  .refine((amount) => amount !== 0, { message: 'An adjustment moves the balance: 0 is not an amount.', params: { type: 'MIN' } })
  .meta({ description: 'Minor units, not 0: negative credits the customer, positive debits them.', not: { const: 0 } });

export { currency };
