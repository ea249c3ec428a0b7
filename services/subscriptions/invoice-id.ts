import { createHash } from 'node:crypto';
import { ID_PREFIXES } from '../../domain/ids';

const CROCKFORD = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * The id of a subscription's invoice, derived from the subscription and the invoice's key
 * (`cycle/3`, `proration/17`): a ULID whose time is when the workflow issued it and whose
 * random part is a hash of the key. A retried activity, or the same step replayed, finds the
 * invoice it made instead of making a second; ids still sort by creation time.
 */
export function subscriptionInvoiceId(subscriptionId: string, key: string, at: number): string {
  let time = '';
  for (let rest = at, i = 0; i < 10; i++, rest = Math.floor(rest / 32)) time = CROCKFORD[rest % 32] + time;
  const digest = createHash('sha256').update(`${subscriptionId}/${key}`).digest();
  let random = '';
  for (let i = 0; i < 16; i++) random += CROCKFORD[digest[i]! % 32];
  return `${ID_PREFIXES.invoice}${time}${random}`;
}

/** The part of a subscription invoice's id that its key decides (the rest is when it was issued). */
export function invoiceKeyPart(invoiceId: string): string {
  return invoiceId.slice(-16);
}
