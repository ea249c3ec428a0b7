import { z } from 'zod';
import { API_KEY_STATUSES, apiKeyStatus } from '../../domain/api-key-status';
import { formatDateTime, formatOptionalDateTime } from '../../domain/datetime';
import { PERMISSIONS } from '../../domain/permissions';
import { dateTime, prefixedId } from '../common/schemas';

export const permission = z.enum(PERMISSIONS).meta({ description: 'A permission `<resource>:<action>`; see docs/permissions.md.' });

/** Section 2.1. */
export const apiKeyObject = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    rotate_at: dateTime.optional().meta({ description: 'When the overlap of the latest rotation ends and the previous secret stops working.' }),
    channel_ids: z.array(z.string()).meta({ description: 'Empty for an account-level key, which reaches every channel.' }),
    permissions: z.array(z.string()),
    status: z.enum(API_KEY_STATUSES).meta({
      description: 'Beyond section 2.1: ACTIVE, or REVOKED for good by api-keys/revoke (docs/api-keys.md); a REVOKED key has no secret that authenticates.',
    }),
    revoked_at: dateTime.optional().meta({ description: 'When api-keys/revoke revoked it.' }),
    issued_by_user_id: z.string().optional().meta({
      description:
        'Extension (docs/api-keys.md): the dashboard user who created the key or last rotated it, and so saw its current secret. Absent when an API key or the operator did.',
    }),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'ApiKey' });

export type ApiKeyObject = z.infer<typeof apiKeyObject>;

export const apiKeyId = prefixedId('apiKey');

export interface ApiKeyRow {
  id: string;
  name: string;
  description: string | null;
  rotateAt: Date | null;
  revokedAt: Date | null;
  permissions: string[];
  createdAt: Date;
  updatedAt: Date;
  channelIds: string[];
  issuedByUserId: string | null;
}

export function serializeApiKey(row: ApiKeyRow): ApiKeyObject {
  return {
    id: row.id,
    name: row.name,
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.rotateAt ? { rotate_at: formatOptionalDateTime(row.rotateAt) } : {}),
    channel_ids: row.channelIds,
    permissions: row.permissions,
    status: apiKeyStatus(row),
    ...(row.revokedAt ? { revoked_at: formatDateTime(row.revokedAt) } : {}),
    ...(row.issuedByUserId ? { issued_by_user_id: row.issuedByUserId } : {}),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}
