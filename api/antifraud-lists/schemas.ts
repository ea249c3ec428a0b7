import { isIP } from 'node:net';
import { z } from 'zod';
import {
  ANTIFRAUD_ACTIONS,
  ANTIFRAUD_FIELDS,
  CARD_FINGERPRINT,
  type AntifraudAction,
  type AntifraudField,
} from '../../domain/antifraud';
import { formatDateTime, formatOptionalDateTime } from '../../domain/datetime';
import type { Constraint } from '../../domain/errors';
import { dateTime } from '../common/schemas';

export const antifraudField = z.enum(ANTIFRAUD_FIELDS).meta({ description: 'What the list matches a payment on.' });

export const antifraudAction = z.enum(ANTIFRAUD_ACTIONS).meta({
  description: 'ALLOW: a matching payment passes whatever BLOCK lists say. BLOCK: a matching payment is refused.',
});

/**
 * Section 1 item 7: antifraud ids are bare ULIDs. ULIDs are case-insensitive, so a lowercase
 * one is accepted and read as the uppercase one we issue.
 */
export const antifraudId = z
  .string()
  .regex(/^[0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{26}$/, { message: 'Expected a 26-character ULID.' })
  .transform((id) => id.toUpperCase())
  .meta({ description: 'A ULID (26 characters, no prefix).' });

export const listName = z.string().trim().min(1).max(100);

/** Section 2.5, plus `action`, which says what a match does. */
export const antifraudListObject = z
  .object({
    id: z.string(),
    name: z.string(),
    field: antifraudField,
    action: antifraudAction,
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'AntifraudList' });

export type AntifraudListObject = z.infer<typeof antifraudListObject>;

export const antifraudListItemObject = z
  .object({
    id: z.string(),
    list_id: z.string(),
    field_value: z.string().meta({ description: 'Stored normalised (docs/antifraud.md): what screening compares.' }),
    expired_at: dateTime.optional().meta({ description: 'From then on the item no longer matches.' }),
    description: z.string().optional(),
    created_by: z.string().meta({ description: 'The e-mail of the user who added it, or the `akey_…` id of the API key.' }),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'AntifraudListItem' });

export type AntifraudListItemObject = z.infer<typeof antifraudListItemObject>;

export interface AntifraudListRow {
  id: string;
  name: string;
  field: string;
  action: string;
  createdAt: Date;
  updatedAt: Date;
}

export function serializeList(row: AntifraudListRow): AntifraudListObject {
  return {
    id: row.id,
    name: row.name,
    field: row.field as AntifraudField,
    action: row.action as AntifraudAction,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}

export interface AntifraudListItemRow {
  id: string;
  listId: string;
  fieldValue: string;
  expiredAt: Date | null;
  description: string | null;
  createdBy: string;
  createdAt: Date;
  updatedAt: Date;
}

export function serializeItem(row: AntifraudListItemRow): AntifraudListItemObject {
  return {
    id: row.id,
    list_id: row.listId,
    field_value: row.fieldValue,
    ...(row.expiredAt ? { expired_at: formatOptionalDateTime(row.expiredAt) } : {}),
    ...(row.description !== null ? { description: row.description } : {}),
    created_by: row.createdBy,
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}

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
      return value.length <= MAX_CARDHOLDER_LENGTH
        ? undefined
        : { type: 'MAX', message: `A cardholder name has at most ${MAX_CARDHOLDER_LENGTH} characters.` };
    case 'CARD_ID':
      return instrumentId.test(value) || CARD_FINGERPRINT.test(value)
        ? undefined
        : { type: 'FORMAT', message: 'Expected a payment instrument id `pi_…` or a card fingerprint (43 base64url characters).' };
  }
}

/** Who acted: the user named by the request, else the API key. Stored lowercase, so EQ filters match either spelling. */
export const createdByEmail = email.transform((value) => value.toLowerCase());
