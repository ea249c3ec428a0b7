import { ApiError } from './errors';

/**
 * An API key is ACTIVE until api-keys/revoke makes it REVOKED, for good (docs/api-keys.md,
 * "revoke"). The status is the `revoked_at` column read, so it is stored once.
 */
export const API_KEY_STATUSES = ['ACTIVE', 'REVOKED'] as const;

export type ApiKeyStatus = (typeof API_KEY_STATUSES)[number];

export function apiKeyStatus(key: { revokedAt: Date | null }): ApiKeyStatus {
  return key.revokedAt ? 'REVOKED' : 'ACTIVE';
}

/**
 * Revoke and rotate act on an ACTIVE key only: rotating a revoked key would issue it a working
 * secret again. 422 INCOMPATIBLE_STATUS with `context.status`, as payment-instruments/revoke.
 */
export function requireActiveApiKey(key: { id: string; revokedAt: Date | null }, action: 'revoked' | 'rotated'): void {
  const status = apiKeyStatus(key);
  if (status !== 'ACTIVE') {
    throw new ApiError('INCOMPATIBLE_STATUS', `API key ${key.id} is ${status}; only an ACTIVE key can be ${action}.`, { status });
  }
}
