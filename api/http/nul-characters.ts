import { ApiError } from '../../domain/errors';
import { formatPath } from '../errors/zod-constraints';

export const NUL_MESSAGE = 'Must not contain the NUL character (U+0000).';

function firstNulPath(value: unknown, path: PropertyKey[]): PropertyKey[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key];
    const found = firstNulPath(child, [...path, Array.isArray(value) ? Number(key) : key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * PostgreSQL text cannot hold U+0000: a string carrying it would fail at the database as a 500.
 * Refused for the whole body before any operation sees it, so no field can forget the rule; the
 * OpenAPI document states it on every request string (api/openapi/document.ts).
 */
export function refuseNulCharacters(body: unknown): void {
  const path = firstNulPath(body, []);
  if (path) throw ApiError.validation({ [formatPath(path)]: { type: 'FORMAT', message: NUL_MESSAGE } });
}
