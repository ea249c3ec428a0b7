import { useEffect, useState } from 'react';

export interface Loaded<T> {
  data: T | undefined;
  error: unknown;
  pending: boolean;
}

/**
 * Reads once per `key` (a new key reads again); the answer of a superseded read is dropped. The
 * portal's pages read little and rarely, so a cache library would cost the first page more than
 * it saves.
 */
export function useLoad<T>(key: string, load: () => Promise<T>): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; pending: boolean }>({ pending: true });
  useEffect(() => {
    let current = true;
    setState((previous) => ({ data: previous.data, pending: true }));
    load().then(
      (data) => current && setState({ data, pending: false }),
      (error: unknown) => current && setState({ error, pending: false }),
    );
    return () => {
      current = false;
    };
    // `load` is a new function every render; `key` names what it reads.
  }, [key]);
  return { data: state.data, error: state.error, pending: state.pending };
}
