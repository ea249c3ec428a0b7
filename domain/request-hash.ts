import { createHash } from 'node:crypto';
import { ApiError } from './errors';

/** Deeper than any body of the API nests: a body past it is refused before it can exhaust the stack. */
export const MAX_BODY_DEPTH = 256;

/** JSON with sorted keys, so two bodies that mean the same hash the same. */
function canonical(value: unknown, depth = 0): string {
  if (depth > MAX_BODY_DEPTH) {
    throw ApiError.validation({ body: { type: 'MAX', message: `The body nests more than ${MAX_BODY_DEPTH} levels deep.` } });
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonical(item, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v, depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(operation: string, input: unknown): string {
  return createHash('sha256').update(operation).update('\n').update(canonical(input)).digest('hex');
}
