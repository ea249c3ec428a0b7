import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { z } from 'zod';
import type { Meta } from '../trpc';

/**
 * `/v2/...` paths that take a missing body: the dispatcher reads an empty body as `{}`
 * (api/http/server.ts), so an operation whose every field is optional (the list operations,
 * section 4.2) answers without one, and the document must not call its body required.
 */
export function optionalBodyPaths(router: AnyRouter): Set<string> {
  const paths = new Set<string>();
  for (const procedure of Object.values(router._def.procedures as Record<string, AnyProcedure>)) {
    const path = (procedure._def.meta as Meta | undefined)?.openapi?.path;
    const input = procedure._def.inputs[0] as z.ZodType | undefined;
    if (path && input?.safeParse({}).success) paths.add(path);
  }
  return paths;
}
