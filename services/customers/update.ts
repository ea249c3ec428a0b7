import { ApiError } from '../../domain/errors';
import { storedPhoneNumber } from '../../domain/phone-numbers';
import { requestHash } from '../../domain/request-hash';
import { resolveTaxRegistrations, type TaxRegistration } from '../../domain/tax-registrations';
import type { Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import type { Scope } from '../scope';
import type { Address, BusinessDetails, Configuration, CustomerObject, LegalAddress, Taxability } from './customer-object-types';
import { lockCustomer, saveCustomer, serializeCustomer, stateOf, type CustomerState } from './repository';
import { checkDefaultPaymentInstrument, checkValidationDates, visibleCustomer } from './rules';
import type { Metadata } from '../../domain/metadata';

/** customers/update as the transport validated it (section 4.3): a field left out is kept, `null` clears one. */
export interface CustomerChanges {
  id: string;
  merchant_customer_id?: string | null;
  email?: string;
  first_name?: string | null;
  last_name?: string | null;
  phone?: string | null;
  address?: Address | null;
  tax?: { taxability: Taxability; registrations?: TaxRegistration[] | null };
  status?: CustomerState['status'];
  business_details?: { name?: string; legal_address?: LegalAddress | null };
  configuration?: {
    default_billing_currency?: string | null;
    default_payment_instrument_id?: string | null;
    preferred_locales?: string[] | null;
  } | null;
  metadata?: Metadata | null;
}

const keep = <T>(sent: T | undefined, current: T): T => (sent === undefined ? current : sent);

function mergedConfiguration(current: Configuration | null, sent: CustomerChanges['configuration']): Configuration | null {
  if (sent === undefined) return current;
  if (sent === null) return null;
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(sent)) {
    if (value === null) delete merged[key];
    else if (value !== undefined) merged[key] = value;
  }
  return Object.keys(merged).length > 0 ? (merged as Configuration) : null;
}

/**
 * A BUSINESS customer created without business details (section 2.2 makes them optional) gets
 * them from the first update that names them: `name` is required then.
 */
function mergedBusinessDetails(current: BusinessDetails | null, sent: CustomerChanges['business_details']): BusinessDetails | null {
  if (!sent) return current;
  const name = sent.name ?? current?.name;
  if (name === undefined) {
    throw ApiError.validation({ 'business_details.name': { type: 'REQUIRED', message: 'Required: this customer has no business details yet.' } });
  }
  const legalAddress = keep(sent.legal_address, current?.legal_address ?? null);
  return { name, ...(legalAddress ? { legal_address: legalAddress } : {}) };
}

/** A phone sent is read in the country of the address the customer has after this update. */
function updatedPhone(sent: string | null | undefined, current: string | null, address: Address | null): string | null {
  if (sent === undefined) return current;
  return sent === null ? null : storedPhoneNumber(sent, address?.country);
}

function updatedState(current: CustomerState, input: CustomerChanges): CustomerState {
  const registrations =
    input.tax?.registrations === undefined
      ? current.tax.registrations
      : input.tax.registrations === null
        ? undefined
        : resolveTaxRegistrations(current.tax.registrations ?? [], input.tax.registrations);
  const address = keep(input.address, current.address);
  return {
    type: current.type,
    email: keep(input.email, current.email),
    firstName: keep(input.first_name, current.firstName),
    lastName: keep(input.last_name, current.lastName),
    phone: updatedPhone(input.phone, current.phone, address),
    merchantCustomerId: keep(input.merchant_customer_id, current.merchantCustomerId),
    address,
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
 * customers/update in the caller's transaction, under the customer's row lock. An update that
 * changes nothing leaves `updated_at` and the outbox alone.
 */
export async function updateCustomer(
  deps: { now: () => Date },
  tx: Prisma.TransactionClient,
  scope: Scope,
  input: CustomerChanges,
): Promise<CustomerObject> {
  const { accountId } = scope;
  await visibleCustomer(tx, scope, input.id);
  const row = (await lockCustomer(tx, accountId, input.id))!;
  const current = stateOf(row);
  if (input.business_details && current.type !== 'BUSINESS') {
    throw ApiError.validation({ business_details: { type: 'INVALID', message: 'Only BUSINESS customers have business details.' } });
  }
  const sentInstrument = input.configuration?.default_payment_instrument_id;
  if (sentInstrument) await checkDefaultPaymentInstrument(tx, accountId, row.id, sentInstrument);

  const next = updatedState(current, input);
  if (input.tax?.registrations) checkValidationDates(next.tax.registrations ?? [], deps.now());
  if (requestHash('customer', next) === requestHash('customer', current)) return serializeCustomer(row);

  const now = deps.now();
  const saved = await saveCustomer(tx, row.id, next, now);
  const customer = serializeCustomer(saved);
  await recordEvent(tx, { accountId, channelId: saved.channelId, name: 'CustomerUpdated', data: { customer }, occurredAt: now });
  return customer;
}
