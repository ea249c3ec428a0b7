import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { resolveTaxRegistrations } from '../../domain/tax-registrations';
import { recordEvent } from '../../prisma/outbox';
import { channelIdField, prefixedId } from '../common/schemas';
import { requestHash } from '../idempotency/request-hash';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation, type AuthorizedContext } from '../trpc';
import { lockCustomer, saveCustomer, serializeCustomer, stateOf, type CustomerState } from './repository';
import { checkDefaultPaymentInstrument, checkValidationDates, visibleCustomer } from './rules';
import {
  addressRequest,
  businessName,
  currency,
  customerId,
  customerObject,
  customerStatus,
  email,
  legalAddressRequest,
  metadata,
  phone,
  preferredLocales,
  taxRegistrations,
  TAXABILITIES,
  type BusinessDetails,
  type Configuration,
} from './schemas';

const name = z.string().trim().min(1).max(100);

/** Section 4.3. A field left out is kept; `null` clears a field that may be absent. */
export const updateCustomerRequest = z.strictObject({
  id: customerId,
  channel_id: channelIdField,
  merchant_customer_id: z.string().trim().min(1).max(100).nullable().optional(),
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
    .meta({ description: 'BUSINESS customers only.' }),
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

const keep = <T>(sent: T | undefined, current: T): T => (sent === undefined ? current : sent);

function mergedConfiguration(current: Configuration | null, sent: UpdateCustomerRequest['configuration']): Configuration | null {
  if (sent === undefined) return current;
  if (sent === null) return null;
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(sent)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  return Object.keys(merged).length > 0 ? (merged as Configuration) : null;
}

function mergedBusinessDetails(current: BusinessDetails | null, sent: UpdateCustomerRequest['business_details']): BusinessDetails | null {
  if (!sent || !current) return current;
  const legalAddress = keep(sent.legal_address, current.legal_address ?? null);
  return { name: sent.name ?? current.name, ...(legalAddress ? { legal_address: legalAddress } : {}) };
}

function updatedState(current: CustomerState, input: UpdateCustomerRequest): CustomerState {
  const registrations =
    input.tax?.registrations === undefined
      ? current.tax.registrations
      : input.tax.registrations === null
        ? undefined
        : resolveTaxRegistrations(current.tax.registrations ?? [], input.tax.registrations);
  return {
    type: current.type,
    email: keep(input.email, current.email),
    firstName: keep(input.first_name, current.firstName),
    lastName: keep(input.last_name, current.lastName),
    phone: keep(input.phone, current.phone),
    merchantCustomerId: keep(input.merchant_customer_id, current.merchantCustomerId),
    address: keep(input.address, current.address),
    tax: {
      taxability: input.tax?.taxability ?? current.tax.taxability,
      ...(registrations && registrations.length > 0 ? { registrations } : {}),
    },
    status: keep(input.status, current.status),
    configuration: mergedConfiguration(current.configuration, input.configuration),
    metadata: keep(input.metadata, current.metadata),
    businessDetails: mergedBusinessDetails(current.businessDetails, input.business_details),
  };
}

/**
 * `customers/update` and its alias `customers/patch`: one operation under two paths, so one
 * Idempotency-Key replays across both. An update that changes nothing leaves `updated_at` and
 * the outbox alone.
 */
export function runCustomerUpdate(ctx: AuthorizedContext, input: UpdateCustomerRequest) {
  return withIdempotency(ctx, 'customers/update', input, (ctx) =>
    ctx.transaction(async (tx) => {
      const accountId = ctx.principal.accountId;
      await visibleCustomer(tx, ctx, input.id, input.channel_id);
      const row = (await lockCustomer(tx, accountId, input.id))!;
      const current = stateOf(row);
      if (input.business_details && current.type !== 'BUSINESS') {
        throw ApiError.validation({ business_details: { type: 'INVALID', message: 'Only BUSINESS customers have business details.' } });
      }
      const sentInstrument = input.configuration?.default_payment_instrument_id;
      if (sentInstrument) await checkDefaultPaymentInstrument(tx, accountId, row.id, sentInstrument);

      const next = updatedState(current, input);
      if (input.tax?.registrations) checkValidationDates(next.tax.registrations ?? [], ctx.now());
      if (requestHash('customer', next) === requestHash('customer', current)) return serializeCustomer(row);

      const now = ctx.now();
      const saved = await saveCustomer(tx, row.id, next, now);
      const customer = serializeCustomer(saved);
      await recordEvent(tx, { accountId, channelId: saved.channelId, name: 'CustomerUpdated', data: { customer }, occurredAt: now });
      return customer;
    }),
  );
}

export const updateCustomer = authorizedProcedure
  .meta(
    operation('customers/update', {
      summary: 'Update a customer',
      description:
        'Changes only the fields sent; null clears a field. Also answers at /v2/customers/patch. Emits CustomerUpdated when something changed. 422: INVALID_DEFAULT_PAYMENT_INSTRUMENT, INVALID_TAX_REGISTRATION_VALIDATION_SOURCE, INVALID_TAX_REGISTRATION_VALIDATION_UPDATE.',
    }),
  )
  .input(updateCustomerRequest)
  .output(customerObject)
  .mutation(({ ctx, input }) => runCustomerUpdate(ctx, input));
