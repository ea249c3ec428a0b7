import { z } from 'zod';
import { ID_PREFIXES, type IdKind } from '../../domain/ids';

/** A date-time in UTC with a trailing Z and up to six fractional digits (section 1, item 5). */
export const dateTime = z.iso.datetime({ offset: false, local: false }).meta({
  description: 'ISO 8601 date-time in UTC with a trailing Z, for example 2026-11-21T09:30:00.000000Z.',
});

const MAX_ID_LENGTH = 64;

/**
 * The prefix and at least one character after it, as a pattern rather than a refinement so the
 * OpenAPI document states it too (a client generated from it sends only ids the server takes).
 * Characters are code points, as JSON Schema counts them for `pattern` and `maxLength`: the
 * pattern runs with the `u` flag and bounds the length itself: without the flag, and with zod's
 * `max`, the length was counted in UTF-16 units, and an id within 64 characters that held
 * characters beyond the BMP was refused (schemathesis, ST202).
 */
export function prefixedId(kind: IdKind) {
  const prefix = ID_PREFIXES[kind];
  return z
    .string()
    .regex(new RegExp(`^${prefix}[\\s\\S]{1,${MAX_ID_LENGTH - prefix.length}}$`, 'u'), { message: `Expected an identifier starting with \`${prefix}\`.` })
    .meta({ description: `Identifier with the prefix \`${prefix}\`.`, maxLength: MAX_ID_LENGTH });
}

/** The request of every `get`-style operation. */
export function byIdRequest(kind: IdKind) {
  return z.strictObject({ id: prefixedId(kind) });
}

/** Optional on operations that touch one channel's records; required for multi-channel keys (section 5.1 item 6). */
export const channelIdField = prefixedId('channel')
  .optional()
  .meta({ description: 'Channel to act in. Required when the API key is bound to several channels.' });
