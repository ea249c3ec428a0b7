import { ApiError } from '../../domain/errors';
import { formatPath } from '../errors/zod-constraints';

export const NUL_MESSAGE = 'Must not contain the NUL character (U+0000).';
export const SURROGATE_MESSAGE = 'Must not contain an unpaired surrogate (\\ud800 to \\udfff escaped without its pair): it is not a character.';

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function refusal(text: string): string | undefined {
  if (text.includes('\u0000')) return NUL_MESSAGE;
  if (UNPAIRED_SURROGATE.test(text)) return SURROGATE_MESSAGE;
  return undefined;
}

function firstUnstorable(value: unknown, path: PropertyKey[]): { path: PropertyKey[]; message: string } | undefined {
  if (typeof value === 'string') {
    const message = refusal(value);
    return message ? { path, message } : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, child] of Object.entries(value)) {
    const inKey = refusal(key);
    if (inKey) return { path: [...path, key], message: inKey };
    const found = firstUnstorable(child, [...path, Array.isArray(value) ? Number(key) : key]);
    if (found) return found;
  }
  return undefined;
}

/**
 * Strings PostgreSQL cannot store as sent, refused for the whole body before any operation sees
 * it, so no field can forget the rule. U+0000: text cannot hold it, the statement would fail as a
 * 500; the OpenAPI document states it on every request string (api/openapi/no-nul-strings.ts). An
 * unpaired surrogate (JSON allows the escape `\ud800` alone): a `jsonb` column refuses it (a 500
 * again) and a `text` column would silently store U+FFFD instead; no pattern can state it the same
 * way in every language's regular expressions, so docs/errors.md does.
 */
export function refuseUnstorableCharacters(body: unknown): void {
  const constraints = unstorableCharacters(body);
  if (constraints) throw ApiError.validation(constraints);
}

/** The first string of `body` PostgreSQL cannot store, as a constraint of the error envelope; undefined when there is none. */
export function unstorableCharacters(body: unknown): Record<string, { type: 'FORMAT'; message: string }> | undefined {
  const found = firstUnstorable(body, []);
  return found ? { [formatPath(found.path)]: { type: 'FORMAT', message: found.message } } : undefined;
}
