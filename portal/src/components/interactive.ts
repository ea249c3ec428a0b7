import { useEffect } from 'react';

/** Set once, when the first page the visitor opened has rendered with its data (docs/portal.md, budgets). */
export const INTERACTIVE_MARK = 'portal:interactive';

/** Marks the moment the page became usable; the browser tests read it from the performance timeline. */
export function useInteractiveWhen(ready: boolean): void {
  useEffect(() => {
    if (ready && performance.getEntriesByName(INTERACTIVE_MARK).length === 0) performance.mark(INTERACTIVE_MARK);
  }, [ready]);
}
