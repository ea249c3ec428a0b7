import type { Prisma } from '../../prisma/client';
import { recordEvent } from '../../prisma/outbox';
import { defaultInstrumentOf } from '../payment-instruments/chargeable-instrument';
import { lockCustomer, saveCustomer, serializeCustomer, stateOf } from './repository';

/**
 * An instrument that can never be charged again (revoked, expired) stops being its customer's
 * default (docs/payment-instruments.md, "The customer's default"): cleared under the customer's
 * row lock, with CustomerUpdated, in the transaction of the instrument's own change. A customer
 * whose default is another instrument is left alone. Returns whether the default was cleared.
 */
export async function clearDefaultInstrument(
  tx: Prisma.TransactionClient,
  instrument: { id: string; accountId: string; customerId: string },
  now: Date,
): Promise<boolean> {
  const row = await lockCustomer(tx, instrument.accountId, instrument.customerId);
  if (!row || defaultInstrumentOf(row) !== instrument.id) return false;
  const current = stateOf(row);
  const { default_payment_instrument_id: _cleared, ...rest } = current.configuration!;
  const configuration = Object.keys(rest).length > 0 ? rest : null;
  const saved = await saveCustomer(tx, row.id, { ...current, configuration }, now);
  const customer = serializeCustomer(saved);
  await recordEvent(tx, { accountId: instrument.accountId, channelId: saved.channelId, name: 'CustomerUpdated', data: { customer }, occurredAt: now });
  return true;
}
