/**
 * Every string of a request body refuses U+0000 (api/http/nul-characters.ts); stated here on
 * each string schema as `not: {pattern: "\u0000"}`, which composes with a pattern it may have.
 */
export function forbidNulInStrings(schema: unknown): void {
  if (Array.isArray(schema)) {
    for (const item of schema) forbidNulInStrings(item);
    return;
  }
  if (schema === null || typeof schema !== 'object') return;
  const node = schema as Record<string, unknown>;
  if (node.type === 'string' && node.enum === undefined && node.const === undefined) node.not = { pattern: '\\u0000' };
  for (const [key, child] of Object.entries(node)) if (key !== 'not') forbidNulInStrings(child);
}
