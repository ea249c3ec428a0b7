import { z } from 'zod';
import { dateTime } from './schemas';

/**
 * List filters (section 4.2): `{operator, value}` per field, with the operators each field
 * allows. An operator a field does not allow is refused as an ENUM constraint on
 * `filters.<field>.operator`.
 */
export type Operator = 'EQ' | 'NEQ' | 'IN' | 'CONTAINS' | 'RANGE';

export const MAX_IN_VALUES = 100;

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** 1 to `max` characters without a comma, neither the first nor the last a space: a trimmed part. */
function trimmedPart(max: number): string {
  return max < 2 ? '[^,\\s]' : `(?:[^,\\s]|[^,\\s][^,]{0,${max - 2}}[^,\\s])`;
}

/**
 * One value of the comma-separated form as a regular expression, read from the value's own JSON
 * Schema (an enum, an anchored pattern, or a length range), as it is once trimmed.
 */
function commaFreeValuePattern(value: z.ZodType<string, string>): string {
  const schema = z.toJSONSchema(value, { io: 'input', unrepresentable: 'any' }) as { enum?: string[]; pattern?: string; minLength?: number; maxLength?: number };
  if (schema.enum) return `(?:${schema.enum.map(escapeRegex).join('|')})`;
  const anyRun = /\[\\s\\S\]\{1,(\d+)\}/;
  if (schema.pattern?.startsWith('^') && schema.pattern.endsWith('$')) {
    return `(?:${schema.pattern.slice(1, -1).replace(anyRun, (_run, max: string) => trimmedPart(Number(max)))})`;
  }
  return trimmedPart(schema.maxLength ?? 1000);
}

/** `IN` takes an array or, as section 4.7 shows, one comma-separated string. */
function inValues(value: z.ZodType<string, string>) {
  const item = commaFreeValuePattern(value);
  return z.union([
    z.array(value).min(1).max(MAX_IN_VALUES),
    z
      .string()
      .min(1)
      .meta({ pattern: `^\\s*${item}\\s*(?:,\\s*${item}\\s*){0,${MAX_IN_VALUES - 1}}$`, description: `Up to ${MAX_IN_VALUES} values separated by commas; spaces around a value are dropped.` })
      .transform((joined) => joined.split(',').map((part) => part.trim()))
      .pipe(z.array(value).min(1).max(MAX_IN_VALUES)),
  ]);
}

export function valueFilter<const Ops extends readonly Exclude<Operator, 'RANGE'>[], T extends z.ZodType<string, string>>(
  operators: Ops,
  value: T,
) {
  const branches = operators.map((operator) =>
    z.strictObject({ operator: z.literal(operator), value: operator === 'IN' ? inValues(value) : value }),
  );
  // One operator is one shape: a union of one would be a `oneOf` of one schema in the document.
  const filter = branches.length === 1 ? branches[0]! : z.discriminatedUnion('operator', branches as unknown as [z.ZodObject, ...z.ZodObject[]]);
  return filter as unknown as z.ZodType<
    | { operator: Exclude<Ops[number], 'IN'>; value: z.output<T> }
    | ('IN' extends Ops[number] ? { operator: 'IN'; value: z.output<T>[] } : never)
  >;
}

/**
 * A date-time RANGE: `from` inclusive, `to` exclusive, either may be left out. A plain date-time
 * string is accepted as `{from: value}` (section 4.9 lists that form).
 */
export const dateTimeRangeFilter = z.strictObject({
  operator: z.literal('RANGE'),
  value: z.union([
    dateTime.transform((from) => ({ from, to: undefined as string | undefined })),
    z
      .strictObject({ from: dateTime.optional(), to: dateTime.optional() })
      .refine((range) => range.from !== undefined || range.to !== undefined, {
        message: 'Give `from`, `to` or both.',
        params: { type: 'REQUIRED' },
      })
      // The object takes only `from` and `to`: "at least one of them" is "not empty".
      .meta({ minProperties: 1 }),
  ]),
});

type ValueFilter = { operator: Exclude<Operator, 'RANGE'>; value: string | string[] };

/** A Prisma condition on one string column. */
export function stringCondition(filter: ValueFilter) {
  switch (filter.operator) {
    case 'EQ':
      return { equals: filter.value as string };
    case 'NEQ':
      return { not: filter.value as string };
    case 'IN':
      return { in: filter.value as string[] };
    case 'CONTAINS':
      return { contains: filter.value as string, mode: 'insensitive' as const };
  }
}

export function dateTimeCondition(filter: z.output<typeof dateTimeRangeFilter>) {
  const { from, to } = filter.value;
  return { ...(from ? { gte: new Date(from) } : {}), ...(to ? { lt: new Date(to) } : {}) };
}
