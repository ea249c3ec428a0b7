/** A /v2 list request: the filters that are set, 20 rows a page, the cursor when paging on. */
export function listBody(token: string | undefined, filters: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const set = Object.fromEntries(Object.entries(filters).filter(([, value]) => value !== undefined));
  return {
    ...extra,
    ...(Object.keys(set).length > 0 ? { filters: set } : {}),
    pagination: { page_size: 20, ...(token ? { next_page_token: token } : {}) },
  };
}

export function pageOf<T>(page: { items: T[]; pagination: { next_page_token: string } }) {
  return { items: page.items, next: page.pagination.next_page_token || undefined };
}

/** `2026-11-01` → the first microsecond of that UTC day, as the API's date-times are written. */
export function dayStart(day: string): string | undefined {
  return day ? `${day}T00:00:00.000000Z` : undefined;
}

export function dayEnd(day: string): string | undefined {
  return day ? `${day}T23:59:59.999999Z` : undefined;
}

export function rangeFilter(from: string, to: string) {
  if (!from && !to) return undefined;
  return { operator: 'RANGE', value: { ...(from ? { from: dayStart(from) } : {}), ...(to ? { to: dayEnd(to) } : {}) } };
}
