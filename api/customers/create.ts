import { z } from 'zod';
import { createCustomer as createCustomerService } from '../../services/customers/create';
import { operationScope } from '../auth/channel-scope';
import { metadata } from '../common/metadata';
import { channelIdField, prefixedId } from '../common/schemas';
import { writeChannel } from '../common/write-channel';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import {
  addressRequest,
  businessName,
  currency,
  customerObject,
  customerStatus,
  customerType,
  email,
  legalAddressRequest,
  phone,
  preferredLocales,
  taxRegistrations,
  TAXABILITIES,
} from './schemas';

const name = z.string().trim().min(1).regex(/\S/).max(100);

const commonFields = {
  channel_id: channelIdField,
  email,
  first_name: name.optional(),
  last_name: name.optional(),
  phone: phone.optional(),
  merchant_customer_id: z.string().trim().min(1).regex(/\S/).max(100).optional(),
  address: addressRequest.optional(),
  tax: z
    .strictObject({ taxability: z.enum(TAXABILITIES), registrations: taxRegistrations.optional() })
    .optional()
    .meta({ description: 'Leave out for `{taxability: TAXABLE}`.' }),
  status: customerStatus.optional().meta({ description: 'ACTIVE when left out.' }),
  configuration: z
    .strictObject({
      default_billing_currency: currency.optional(),
      default_payment_instrument_id: prefixedId('paymentInstrument')
        .optional()
        .meta({ description: 'A new customer has no instruments: set it with an update after tokenizing one.' }),
      preferred_locales: preferredLocales.optional(),
    })
    .optional(),
  metadata: metadata.optional(),
};

/**
 * One object rather than a union per type: the OpenAPI generator takes only objects as input.
 * `business_details` is optional for BUSINESS (section 2.2) and refused for INDIVIDUAL.
 */
export const createCustomerRequest = z
  .strictObject({
    type: customerType,
    ...commonFields,
    business_details: z
      .strictObject({ name: businessName, legal_address: legalAddressRequest.optional() })
      .optional()
      .meta({ description: 'BUSINESS customers only, and optional for them; INDIVIDUAL customers have none.' }),
  })
  .superRefine((customer, ctx) => {
    if (customer.type === 'INDIVIDUAL' && customer.business_details) {
      ctx.addIssue({ code: 'custom', path: ['business_details'], message: 'Only BUSINESS customers have business details.', params: { type: 'INVALID' } });
    }
  })
  .meta({
    anyOf: [{ properties: { type: { const: 'BUSINESS' } } }, { not: { required: ['business_details'] } }],
  });

export const createCustomer = authorizedProcedure
  .meta(
    operation('customers/create', {
      summary: 'Create a customer',
      description:
        'INDIVIDUAL or BUSINESS (business_details optional). Created in `channel_id`, the key’s only channel, or the account’s default channel. Emits CustomerCreated.',
    }),
  )
  .input(createCustomerRequest)
  .output(customerObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'customers/create', input, async (ctx) => {
      const channelId = await writeChannel(ctx, input.channel_id);
      return ctx.transaction((tx) => createCustomerService(ctx, tx, operationScope(ctx.principal, input.channel_id), channelId, input));
    }),
  );
