import { characterCount } from '../../domain/characters';
import { ID_PREFIXES } from '../../domain/ids';
import { EVENT_NAME } from '../../domain/usage/meter-rules';
import type { UsageEventInput } from '../../services/usage/ingest-outcomes';
import { unstorableCharacters } from '../http/unstorable-characters';

/** Limits of one usage event (docs/usage.md, "Ingestion"). */
export const MAX_EVENT_ID_LENGTH = 255;
export const MAX_TOP_LEVEL_PROPERTIES = 64;
/** `properties` itself is level 1; a meter's property path reaches at most 5 levels. */
export const MAX_PROPERTIES_DEPTH = 5;
export const MAX_PROPERTIES_BYTES = 8 * 1024;

const FIELDS: ReadonlySet<string> = new Set(['event_id', 'event_name', 'customer_id', 'timestamp', 'properties']);
/** C0 and C1 control characters, DEL: not printable. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** customers/get's id rule (api/common/schemas.ts prefixedId): the prefix, then up to 64 characters in all. */
const CUSTOMER_ID = new RegExp(`^${ID_PREFIXES.customer}[\\s\\S]{1,${64 - ID_PREFIXES.customer.length}}$`, 'u');
/** Section 1, item 5: UTC with a trailing Z; up to six fractional digits (PostgreSQL keeps microseconds). */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?Z$/;

/** Why an event is not well-formed: its field (`properties.a.b`, `timestamp`) and what is wrong. */
export interface ShapeRefusal {
  field: string;
  message: string;
}

export type EventShape = { event: UsageEventInput } | { refusal: ShapeRefusal; eventId?: string };

/** Epoch ms of a section 1 date-time (sub-millisecond digits dropped), or null when it is none or no real date. */
export function dateTimeMs(text: string): number | null {
  const match = DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCDate() !== day) return null;
  date.setUTCHours(hour, minute, second, Number((match[7] ?? '').padEnd(3, '0').slice(0, 3)));
  return date.getTime();
}

function refused(field: string, message: string, eventId?: string): EventShape {
  return { refusal: { field: storable(field), message }, ...(eventId === undefined ? {} : { eventId }) };
}

/**
 * A property name as an answer (and its idempotency record, jsonb) can hold it: NUL and lone
 * surrogates, which PostgreSQL's jsonb refuses, become U+FFFD.
 */
function storable(text: string): string {
  return text.replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Where `properties` nests deeper than allowed, or undefined. Iterative: a body may nest thousands of levels. */
function tooDeep(properties: object): string | undefined {
  const pending: [object, string, number][] = [[properties, 'properties', 1]];
  while (pending.length > 0) {
    const [value, path, depth] = pending.pop()!;
    for (const [key, child] of Object.entries(value)) {
      if (child === null || typeof child !== 'object') continue;
      const childPath = Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`;
      if (depth >= MAX_PROPERTIES_DEPTH) return childPath;
      pending.push([child, childPath, depth + 1]);
    }
  }
  return undefined;
}

function textRefusal(field: string, value: unknown, maxLength: number, eventId?: string): EventShape | undefined {
  if (typeof value !== 'string') return refused(field, value === undefined ? 'Required.' : 'Expected a string.', eventId);
  const length = characterCount(value);
  if (length < 1 || length > maxLength) return refused(field, `Expected 1 to ${maxLength} characters.`, eventId);
  if (CONTROL.test(value)) return refused(field, 'Must not contain control characters (U+0000 to U+001F, U+007F to U+009F).', eventId);
  const unstorable = unstorableCharacters(value);
  return unstorable ? refused(field, unstorable.body!.message, eventId) : undefined;
}

/**
 * One item of a batch as ingestion takes it, or why it is not a well-formed event: such an event
 * is rejected alone (INVALID_EVENT) and the rest of the batch goes on.
 */
export function readUsageEvent(raw: unknown, index: number): EventShape {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return refused('event', 'Expected an object.');
  const item = raw as Record<string, unknown>;
  const idRefusal = textRefusal('event_id', item.event_id, MAX_EVENT_ID_LENGTH);
  if (idRefusal) return idRefusal;
  const eventId = item.event_id as string;
  for (const key in item) if (!FIELDS.has(key)) return refused(key, 'Not a field of a usage event.', eventId);
  if (typeof item.event_name !== 'string' || !EVENT_NAME.test(item.event_name)) {
    return refused('event_name', 'Expected 1 to 100 letters, digits, `_`, `.`, `:` or `-`.', eventId);
  }
  if (typeof item.customer_id !== 'string' || !CUSTOMER_ID.test(item.customer_id) || unstorableCharacters(item.customer_id)) {
    return refused('customer_id', `Expected a customer id (\`${ID_PREFIXES.customer}…\`).`, eventId);
  }
  const at = typeof item.timestamp === 'string' ? dateTimeMs(item.timestamp) : null;
  if (at === null) return refused('timestamp', 'Expected a UTC date-time such as 2026-11-21T09:30:00.000000Z.', eventId);

  const properties = item.properties === undefined ? {} : item.properties;
  if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return refused('properties', 'Expected an object.', eventId);
  const count = Object.keys(properties).length;
  if (count > MAX_TOP_LEVEL_PROPERTIES) return refused('properties', `At most ${MAX_TOP_LEVEL_PROPERTIES} properties at the top level; it has ${count}.`, eventId);
  const deep = tooDeep(properties);
  if (deep) return refused(deep, `Properties nest at most ${MAX_PROPERTIES_DEPTH} levels deep.`, eventId);
  const unstorable = unstorableCharacters(properties);
  if (unstorable) {
    const [path, constraint] = Object.entries(unstorable)[0]!;
    return refused(`properties.${path}`, constraint.message, eventId);
  }
  const propertiesJson = JSON.stringify(properties);
  const bytes = Buffer.byteLength(propertiesJson);
  if (bytes > MAX_PROPERTIES_BYTES) return refused('properties', `At most ${MAX_PROPERTIES_BYTES} bytes as JSON; it has ${bytes}.`, eventId);
  return {
    event: {
      index,
      eventId,
      eventName: item.event_name,
      customerId: item.customer_id,
      timestamp: item.timestamp as string,
      at,
      properties: properties as Record<string, unknown>,
      propertiesJson,
    },
  };
}
