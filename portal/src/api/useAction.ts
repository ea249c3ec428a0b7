import { useCallback, useRef, useState } from 'react';

export interface Action<A extends unknown[], T> {
  run(...args: A): Promise<T | undefined>;
  pending: boolean;
  error: unknown;
  result: T | undefined;
  reset(): void;
}

/**
 * A change the person starts: one at a time (a second press while the first is running does
 * nothing), its failure kept for the page to say in words.
 */
export function useAction<A extends unknown[], T>(perform: (...args: A) => Promise<T>): Action<A, T> {
  const [state, setState] = useState<{ pending: boolean; error?: unknown; result?: T }>({ pending: false });
  const running = useRef(false);
  const run = async (...args: A): Promise<T | undefined> => {
    if (running.current) return undefined;
    running.current = true;
    setState({ pending: true });
    try {
      const result = await perform(...args);
      setState({ pending: false, result });
      return result;
    } catch (error) {
      setState({ pending: false, error });
      return undefined;
    } finally {
      running.current = false;
    }
  };
  const reset = useCallback(() => setState({ pending: false }), []);
  return { run, pending: state.pending, error: state.error, result: state.result, reset };
}
