import { useRef } from 'react';

/**
 * An Idempotency-Key for a form that moves money (docs/idempotency.md). Sending the same body
 * again, as a person does when an answer never came, reuses the key, so the platform answers with
 * the first result instead of charging, refunding or crediting twice; another body gets a new
 * key; `done` after a success, so the next request is a new one even with the same body.
 */
export function useIdempotencyKey(): { keyFor(body: unknown): string; done(): void } {
  const last = useRef<{ body: string; key: string } | undefined>(undefined);
  return {
    keyFor(body) {
      const json = JSON.stringify(body);
      if (last.current?.body !== json) last.current = { body: json, key: crypto.randomUUID() };
      return last.current.key;
    },
    done() {
      last.current = undefined;
    },
  };
}
