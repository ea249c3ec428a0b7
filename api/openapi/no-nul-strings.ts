const NO_NUL = { pattern: '\\u0000' };

/**
 * Every string of a request body refuses U+0000 (api/http/unstorable-characters.ts), object keys too;
 * stated here on each string schema as `not: {pattern: "\u0000"}`, which composes with a
 * pattern it may have, and on the `propertyNames` of each object that takes keys of its own.
 */
export function forbidNulInStrings(schema: unknown): void {
  if (Array.isArray(schema)) {
    for (const item of schema) forbidNulInStrings(item);
    return;
  }
  if (schema === null || typeof schema !== 'object') return;
  const node = schema as Record<string, unknown>;
  if (node.type === 'string' && node.enum === undefined && node.const === undefined) node.not = NO_NUL;
  for (const [key, child] of Object.entries(node)) if (key !== 'not' && key !== 'propertyNames') forbidNulInStrings(child);
  if (node.type === 'object' && typeof node.additionalProperties === 'object') {
    node.propertyNames = { ...(node.propertyNames as object | undefined), not: NO_NUL };
  }
}
