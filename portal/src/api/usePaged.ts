import { useCallback, useEffect, useState } from 'react';
import { portalCall } from './call';
import type { CursorPage } from './types';

export interface Paged<T> {
  items: T[];
  /** The first page has been answered (or refused). */
  loaded: boolean;
  pending: boolean;
  error: unknown;
  hasMore: boolean;
  more(): void;
  /** An object a change answered with, shown in place of its old copy. */
  replace(item: T): void;
}

/** A cursor-paginated list operation (`invoices/list`, …), newest first, 20 at a time, "Show more" for the next page. */
export function usePaged<T extends { id: string }>(operation: string): Paged<T> {
  const [state, setState] = useState<{ items: T[]; next: string | null; loaded: boolean; pending: boolean; error?: unknown }>({
    items: [],
    next: null,
    loaded: false,
    pending: true,
  });

  const load = useCallback(
    (cursor: string | null) => {
      setState((previous) => ({ ...previous, pending: true, error: undefined }));
      portalCall<CursorPage<T>>(operation, cursor ? { cursor } : {}).then(
        (page) => setState((previous) => ({ items: cursor ? [...previous.items, ...page.data] : page.data, next: page.next_cursor, loaded: true, pending: false })),
        (error: unknown) => setState((previous) => ({ ...previous, loaded: true, pending: false, error })),
      );
    },
    [operation],
  );

  useEffect(() => load(null), [load]);

  return {
    items: state.items,
    loaded: state.loaded,
    pending: state.pending,
    error: state.error,
    hasMore: state.next !== null,
    more: () => load(state.next),
    replace: (item) => setState((previous) => ({ ...previous, items: previous.items.map((old) => (old.id === item.id ? item : old)) })),
  };
}
