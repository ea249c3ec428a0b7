import { ApiError } from '../../domain/errors';
import type { TaxRegistration } from '../../domain/tax-registrations';
import type { Prisma } from '../../prisma/client';
import { chargeableInstrument } from '../payment-instruments/chargeable-instrument';
import type { Scope } from '../scope';
import { findCustomer } from './repository';

type Transaction = Prisma.TransactionClient;

/**
 * The customer as the caller may see it: one in a channel the key cannot reach, or outside the
 * `channel_id` named, is answered as absent (404), so channels do not leak each other's ids.
 */
export async function visibleCustomer(db: Transaction, scope: Scope, id: string) {
  const row = await findCustomer(db, scope.accountId, id);
  if (!row || (scope.channels !== null && !scope.channels.includes(row.channelId))) throw ApiError.notFound('Customer', id);
  return row;
}

/**
 * 422 INVALID_DEFAULT_PAYMENT_INSTRUMENT unless the instrument belongs to this customer and is
 * ACTIVE. A customer being created has no instruments yet, so it can never name one.
 */
export async function checkDefaultPaymentInstrument(tx: Transaction, accountId: string, customerId: string | null, instrumentId: string) {
  const verdict = customerId ? await chargeableInstrument(tx, { accountId, customerId, instrumentId }) : undefined;
  if (verdict?.chargeable) return;
  const status = verdict?.reason === 'NOT_ACTIVE' ? verdict.status : undefined;
  throw new ApiError(
    'INVALID_DEFAULT_PAYMENT_INSTRUMENT',
    status
      ? `Payment instrument ${instrumentId} is ${status}; only an ACTIVE instrument can be the default.`
      : `Payment instrument ${instrumentId} is not an instrument of this customer.`,
    { field: 'configuration.default_payment_instrument_id', default_payment_instrument_id: instrumentId, ...(status ? { status } : {}) },
  );
}

/** A validation cannot be dated after the request: nobody validated it yet. */
export function checkValidationDates(registrations: readonly TaxRegistration[], now: Date) {
  registrations.forEach((registration, index) => {
    if (registration.validation && Date.parse(registration.validation.validated_at) > now.getTime()) {
      throw ApiError.validation({
        [`tax.registrations[${index}].validation.validated_at`]: { type: 'MAX', message: 'Cannot be in the future.' },
      });
    }
  });
}
