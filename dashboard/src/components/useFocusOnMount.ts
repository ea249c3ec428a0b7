import { useEffect, useRef } from 'react';

/** Moves focus to the element once, when it appears (a panel that opened, a secret just shown). */
export function useFocusOnMount<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  useEffect(() => ref.current?.focus(), []);
  return ref;
}
