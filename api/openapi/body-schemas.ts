import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { z } from 'zod';
import type { Meta } from '../trpc';

/** Keys the generator itself copies from an input's meta onto the request body schema. */
const COPIED_BY_GENERATOR = new Set(['id', 'title', 'description', 'examples']);

export interface BodySchemaFix {
  /** The input refuses unknown fields (`z.strictObject`). */
  strict: boolean;
  /** JSON Schema keywords the input states in its meta, e.g. `anyOf` for "give at least one of". */
  keywords: Record<string, unknown>;
}

/**
 * What trpc-to-openapi drops from a request body: it rebuilds a refined input object from its
 * shape, losing `additionalProperties: false`, and keeps only title, description and examples of
 * the input's meta. Without these the document allows bodies the server refuses.
 */
export function bodySchemaFixes(router: AnyRouter): Map<string, BodySchemaFix> {
  const fixes = new Map<string, BodySchemaFix>();
  for (const procedure of Object.values(router._def.procedures as Record<string, AnyProcedure>)) {
    const path = (procedure._def.meta as Meta | undefined)?.openapi?.path;
    const input = procedure._def.inputs[0] as z.ZodObject | undefined;
    if (!path || !input) continue;
    const catchall = (input._zod.def as { catchall?: z.ZodType }).catchall;
    const keywords = Object.fromEntries(Object.entries(input.meta() ?? {}).filter(([key]) => !COPIED_BY_GENERATOR.has(key)));
    fixes.set(path, { strict: catchall?._zod.def.type === 'never', keywords });
  }
  return fixes;
}
