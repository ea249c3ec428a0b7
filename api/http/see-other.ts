import type { AnyProcedure, AnyRouter } from '@trpc/server';
import { z } from 'zod';
import type { Meta } from '../trpc';

/**
 * Operations that answer `303 See Other` (section 4.11, reports/download): the procedure sets
 * `seeOther: true` in its meta and returns `{location}`; the dispatcher answers 303 with that
 * Location header and the same JSON body, for clients that do not follow redirects.
 */
export const seeOtherResponse = z
  .object({ location: z.string().meta({ description: 'Where to fetch the resource: also the `Location` header.' }) })
  .meta({ id: 'SeeOther' });

export type SeeOther = z.infer<typeof seeOtherResponse>;

/** `/v2/...` paths whose procedures declare `seeOther`. */
export function seeOtherPaths(router: AnyRouter): Set<string> {
  const paths = new Set<string>();
  for (const procedure of Object.values(router._def.procedures as Record<string, AnyProcedure>)) {
    const meta = procedure._def.meta as Meta | undefined;
    if (meta?.seeOther && meta.openapi?.path) paths.add(meta.openapi.path);
  }
  return paths;
}

/** The OpenAPI responses entry that replaces 200 for such an operation. */
export function seeOtherOpenApiResponse(success: unknown): Record<string, unknown> {
  const content = (success as { content?: unknown } | undefined)?.content;
  return {
    description: 'See Other: fetch the `Location` with GET. The body repeats it.',
    headers: { Location: { description: 'A short-lived URL of the resource.', schema: { type: 'string', format: 'uri' } } },
    ...(content ? { content } : {}),
  };
}
