import type { AnyProcedure, AnyRouter } from '@trpc/server';
import type { Meta } from '../trpc';

/**
 * Operations that judge the items of one array field one by one (`judgesItemsAlone` in their
 * meta; usage-events/ingest): a bad item is refused in the answer while the others go on, so the
 * body-wide refusal of unstorable characters (api/http/unstorable-characters.ts) must not refuse
 * the whole batch for one of them. The operation checks those items itself.
 */
export function itemsJudgedAlone(router: AnyRouter): Map<string, string> {
  const fields = new Map<string, string>();
  for (const procedure of Object.values(router._def.procedures as Record<string, AnyProcedure>)) {
    const meta = procedure._def.meta as Meta | undefined;
    if (meta?.judgesItemsAlone && meta.openapi?.path) fields.set(meta.openapi.path, meta.judgesItemsAlone);
  }
  return fields;
}

/** The body without `field`'s items, for the body-wide check; the body itself when there is none to leave out. */
export function withoutItems(body: unknown, field: string | undefined): unknown {
  if (field === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  const items = (body as Record<string, unknown>)[field];
  return Array.isArray(items) ? { ...body, [field]: [] } : body;
}
