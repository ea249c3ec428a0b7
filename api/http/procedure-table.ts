import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { Meta } from '../trpc';

/** `/v2/api-keys/get` → `api-keys.get`, read from each procedure's OpenAPI meta. */
export function procedureTable(router: AnyRouter): Map<string, string> {
  const table = new Map<string, string>();
  for (const [dotted, procedure] of Object.entries(router._def.procedures as Record<string, AnyProcedure>)) {
    const meta = procedure._def.meta as Meta | undefined;
    if (meta?.openapi?.path) table.set(meta.openapi.path, dotted);
  }
  return table;
}
