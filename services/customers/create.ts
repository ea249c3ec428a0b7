import { storedPhoneNumber } from '../../domain/phone-numbers';
import { resolveTaxRegistrations, type TaxRegistration } from '../../domain/tax-registrations';
import type { Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import type { Scope } from '../scope';
import type { Address, BusinessDetails, Configuration, CustomerObject, Taxability } from './customer-object-types';
import { insertCustomer, serializeCustomer, type CustomerState } from './repository';
import { checkDefaultPaymentInstrument, checkValidationDates } from './rules';
import type { Metadata } from '../../domain/metadata';

/** customers/create as the transport validated it (section 4.3); business details only for BUSINESS, optional there. */
export interface NewCustomerRequest {
  type: CustomerState['type'];
  email: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  merchant_customer_id?: string;
  address?: Address;
  tax?: { taxability: Taxability; registrations?: TaxRegistration[] };
  status?: CustomerState['status'];
  configuration?: { default_billing_currency?: string; default_payment_instrument_id?: string; preferred_locales?: string[] };
  metadata?: Metadata;
  business_details?: BusinessDetails;
}

/**
 * customers/create in the caller's transaction, in `channelId` (resolved and checked by the
 * transport): the customer inserted with CustomerCreated.
 */
export async function createCustomer(
  deps: { now: () => Date },
  tx: Prisma.TransactionClient,
  scope: Scope,
  channelId: string,
  input: NewCustomerRequest,
): Promise<CustomerObject> {
  const { accountId } = scope;
  const now = deps.now();
  const requested = input.configuration ?? {};
  if (requested.default_payment_instrument_id) {
    await checkDefaultPaymentInstrument(tx, accountId, null, requested.default_payment_instrument_id);
  }
  const registrations = input.tax?.registrations ? resolveTaxRegistrations([], input.tax.registrations) : undefined;
  if (registrations) checkValidationDates(registrations, now);
  const configuration: Configuration = {
    ...(requested.default_billing_currency ? { default_billing_currency: requested.default_billing_currency } : {}),
    ...(requested.preferred_locales ? { preferred_locales: requested.preferred_locales } : {}),
  };
  const state: CustomerState = {
    type: input.type,
    email: input.email,
    firstName: input.first_name ?? null,
    lastName: input.last_name ?? null,
    phone: input.phone === undefined ? null : storedPhoneNumber(input.phone, input.address?.country),
    merchantCustomerId: input.merchant_customer_id ?? null,
    address: input.address ?? null,
    tax: { taxability: input.tax?.taxability ?? 'TAXABLE', ...(registrations ? { registrations } : {}) },
    status: input.status ?? 'ACTIVE',
    configuration: Object.keys(configuration).length > 0 ? configuration : null,
    metadata: input.metadata ?? null,
    businessDetails: input.type === 'BUSINESS' ? (input.business_details ?? null) : null,
  };
  const row = await insertCustomer(tx, { accountId, channelId, state, now });
  const customer = serializeCustomer(row);
  await recordEvent(tx, { accountId, channelId, name: 'CustomerCreated', data: { customer }, occurredAt: now });
  return customer;
}
