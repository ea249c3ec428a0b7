import type { SchemaObject } from 'openapi3-ts/oas31';

type Schema = SchemaObject & { $ref?: string; const?: unknown };

/** A date-time as the API writes them (docs: UTC, six fractional digits, `Z`). */
const EXAMPLE_DATE_TIME = '2026-01-01T00:00:00.000000Z';

/**
 * The smallest body a request schema allows: its required fields only, each with a value its
 * constraints accept (the first enum value or variant, the minimum, an id with its prefix). "Try
 * it out" starts from it, so a list operation's example (nothing required) answers 200 as it is;
 * a schema's own example wins.
 */
export function minimalExample(schema: Schema, components: Record<string, Schema>, depth = 0): unknown {
  if (schema.$ref) return minimalExample(components[schema.$ref.split('/').pop()!] ?? {}, components, depth);
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const variant = schema.oneOf?.[0] ?? schema.anyOf?.[0] ?? schema.allOf?.[0];
  if (variant) return minimalExample(variant as Schema, components, depth);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      if (depth > 8) return {};
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries((schema.required ?? []).map((name) => [name, minimalExample(properties[name] ?? {}, components, depth + 1)]));
    }
    case 'array': {
      const count = schema.minItems ?? 0;
      return Array.from({ length: count }, () => minimalExample((schema.items ?? {}) as Schema, components, depth + 1));
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? (typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return false;
    case 'string':
      return exampleString(schema);
    default:
      return null;
  }
}

function exampleString(schema: Schema): string {
  if (schema.format === 'date-time') return EXAMPLE_DATE_TIME;
  if (schema.format === 'date') return EXAMPLE_DATE_TIME.slice(0, 10);
  if (schema.format === 'email') return 'payer@example.com';
  if (schema.format === 'uri') return 'https://example.com/webhooks';
  const prefix = /prefix `(\w+_)`/.exec(schema.description ?? '')?.[1];
  const text = prefix ? `${prefix}01example` : 'example';
  return text.padEnd(schema.minLength ?? 0, 'x').slice(0, schema.maxLength ?? text.length);
}
