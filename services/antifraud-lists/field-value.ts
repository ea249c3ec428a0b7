import { isIP } from 'node:net';
import { z } from 'zod';
import { CARD_FINGERPRINT, type AntifraudField } from '../../domain/antifraud';
import { characterCount } from '../../domain/characters';
import type { Constraint } from '../../domain/errors';

export const MAX_CARDHOLDER_LENGTH = 200;

const email = z.email().max(254);
const customerId = /^cust_[0-9a-z]{1,59}$/;
const instrumentId = /^pi_[0-9a-z]{1,61}$/;

/**
 * What a value must look like for the list's field. Checked after the list is read, since
 * the rule depends on it; `value` is already trimmed.
 */
export function fieldValueProblem(field: AntifraudField, value: string): Constraint | undefined {
  switch (field) {
    case 'IP_ADDRESS':
      return isIP(value) ? undefined : { type: 'FORMAT', message: 'Expected an IPv4 or IPv6 address.' };
    case 'CUSTOMER_EMAIL':
      return email.safeParse(value).success ? undefined : { type: 'FORMAT', message: 'Expected an e-mail address.' };
    case 'CUSTOMER_ID':
      return customerId.test(value) ? undefined : { type: 'FORMAT', message: 'Expected a customer id `cust_…`.' };
    case 'CARDHOLDER':
      return characterCount(value) <= MAX_CARDHOLDER_LENGTH
        ? undefined
        : { type: 'MAX', message: `A cardholder name has at most ${MAX_CARDHOLDER_LENGTH} characters.` };
    case 'CARD_ID':
      return instrumentId.test(value) || CARD_FINGERPRINT.test(value)
        ? undefined
        : { type: 'FORMAT', message: 'Expected a payment instrument id `pi_…` or a card fingerprint (43 base64url characters, or `stripe:…`).' };
  }
}

