import { z } from 'zod';
import {
  ANTIFRAUD_ACTIONS,
  ANTIFRAUD_FIELDS,
  type AntifraudAction,
  type AntifraudField,
} from '../../domain/antifraud';
import { formatDateTime, formatOptionalDateTime } from '../../domain/datetime';
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

export const listName = z.string().trim().min(1).regex(/\S/).max(100);

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
    created_by: z.string().optional().meta({ description: 'The e-mail of the user who added it (section 2.5); absent when an API key added it naming no user.' }),
    created_by_api_key_id: z
      .string()
      .optional()
      .meta({ description: 'Extension (docs/antifraud.md): the `akey_…` id of the API key that added it; absent when a dashboard user did.' }),
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
  createdBy: string | null;
  createdByApiKeyId: string | null;
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
    ...(row.createdBy !== null ? { created_by: row.createdBy } : {}),
    ...(row.createdByApiKeyId !== null ? { created_by_api_key_id: row.createdByApiKeyId } : {}),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}

const email = z.email().max(254);

/** The user a caller names as acting. Stored lowercase, so EQ filters match either spelling. */
export const createdByEmail = email.transform((value) => value.toLowerCase());
