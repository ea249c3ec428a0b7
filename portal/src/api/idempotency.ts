import { useRef } from 'react';
import { RequestFailed } from './errors';

/** Whether the platform decided the request (answered or refused it), so a new attempt needs a new key (docs/idempotency.md). */
function decided(error: unknown): boolean {
  if (error === undefined) return true;
  return error instanceof RequestFailed && error.status < 500 && error.status !== 429;
}

/**
 * An Idempotency-Key per attempt of a change that must not happen twice (paying, adding a card,
 * cancelling, changing a subscription). Sending the same body again after no answer came (the
 * network, a 5xx, a 429) reuses the key, so the platform answers with the first result instead
 * of charging twice; another body gets a new key, and so does the attempt after an answer.
 */
export function useIdempotencyKey(): { keyFor(body: unknown): string; settled(error?: unknown): void } {
  const last = useRef<{ body: string; key: string } | undefined>(undefined);
  return {
    keyFor(body) {
      const json = JSON.stringify(body);
      if (last.current?.body !== json) last.current = { body: json, key: crypto.randomUUID() };
      return last.current.key;
    },
    settled(error) {
      if (decided(error)) last.current = undefined;
    },
  };
}
