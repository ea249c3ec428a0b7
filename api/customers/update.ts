import { z } from 'zod';
import { updateCustomer as updateCustomerService } from '../../services/customers/update';
import { operationScope } from '../auth/channel-scope';
import { metadata } from '../common/metadata';
import { channelIdField, prefixedId } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation, type AuthorizedContext } from '../trpc';
import {
  addressRequest,
  businessName,
  currency,
  customerId,
  customerObject,
  customerStatus,
  email,
  legalAddressRequest,
  phone,
  preferredLocales,
  taxRegistrations,
  TAXABILITIES,
} from './schemas';

const name = z.string().trim().min(1).regex(/\S/).max(100);

/** Section 4.3. A field left out is kept; `null` clears a field that may be absent. */
export const updateCustomerRequest = z.strictObject({
  id: customerId,
  channel_id: channelIdField,
  merchant_customer_id: z.string().trim().min(1).regex(/\S/).max(100).nullable().optional(),
  email: email.optional(),
  first_name: name.nullable().optional(),
  last_name: name.nullable().optional(),
  phone: phone.nullable().optional(),
  address: addressRequest.nullable().optional().meta({ description: 'Replaces the whole address; null removes it.' }),
  tax: z
    .strictObject({
      taxability: z.enum(TAXABILITIES),
      registrations: taxRegistrations
        .nullable()
        .optional()
        .meta({ description: 'Replaces the list (validations left out are kept); null removes all; left out keeps them.' }),
    })
    .optional(),
  status: customerStatus.optional(),
  business_details: z
    .strictObject({
      name: businessName.optional(),
      legal_address: legalAddressRequest.nullable().optional().meta({ description: 'Replaces the legal address; null removes it.' }),
    })
    .optional()
    .meta({ description: 'BUSINESS customers only. A customer created without business details gets them from an update that names them (`name` required then).' }),
  configuration: z
    .strictObject({
      default_billing_currency: currency.nullable().optional(),
      default_payment_instrument_id: prefixedId('paymentInstrument')
        .nullable()
        .optional()
        .meta({ description: 'An ACTIVE instrument of this customer, else 422 INVALID_DEFAULT_PAYMENT_INSTRUMENT.' }),
      preferred_locales: preferredLocales.nullable().optional(),
    })
    .nullable()
    .optional()
    .meta({ description: 'Each setting sent is changed on its own; null removes them all.' }),
  metadata: metadata.nullable().optional().meta({ description: 'Replaces the whole metadata object; null removes it.' }),
});

export type UpdateCustomerRequest = z.infer<typeof updateCustomerRequest>;

/**
 * `customers/update` and its alias `customers/patch`: one operation under two paths, so one
 * Idempotency-Key replays across both.
 */
export function runCustomerUpdate(ctx: AuthorizedContext, input: UpdateCustomerRequest) {
  return withIdempotency(ctx, 'customers/update', input, (ctx) =>
    ctx.transaction((tx) => updateCustomerService(ctx, tx, operationScope(ctx.principal, input.channel_id), input)),
  );
}

export const updateCustomer = authorizedProcedure
  .meta(
    operation('customers/update', {
      summary: 'Update a customer',
      description:
        'Changes only the fields sent; null clears a field. Also answers at /v2/customers/patch. Emits CustomerUpdated when something changed.',
    }),
  )
  .input(updateCustomerRequest)
  .output(customerObject)
  .mutation(({ ctx, input }) => runCustomerUpdate(ctx, input));
