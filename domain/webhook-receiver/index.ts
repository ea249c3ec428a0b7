import { verifySignature } from './signature';
import type { EventIdStore } from './store';

export { computeSignature, verifySignature } from './signature';
export { MemoryEventIdStore } from './memory-store';
export type { EventIdStore } from './store';

/**
 * The receiver kit (docs/webhook-receiver.md): what a merchant's Node service needs to accept the
 * platform's webhook deliveries safely, with no web framework assumed. Give `handle` the raw
 * request body bytes and the request headers; answer the HTTP request with the status it returns.
 */

/** Section 6.1. */
export interface WebhookEvent {
  event_id: string;
  event_type: string;
  occurred_at: string;
  data: Record<string, unknown>;
}

/** Section 8: deliveries whose `occurred_at` is older than this are rejected. */
export const REPLAY_WINDOW_MS = 5 * 60 * 1000;
/** Section 8: processed `event_id`s are remembered at least this long. */
export const DEDUPLICATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

export interface WebhookReceiverOptions {
  /**
   * The endpoint's secrets: one normally, two while a rotation overlaps (the previous and the
   * new one). A function is read at every request, so secrets can change without a restart.
   */
  secrets: readonly string[] | (() => readonly string[]);
  store: EventIdStore;
  /**
   * Called once per `event_id`. Keep it short (enqueue the work): the platform counts a delivery
   * as failed when the answer takes longer than its timeout. If it throws, the id is forgotten
   * and the request answered 500, so the platform's retry gets another chance.
   */
  onEvent: (event: WebhookEvent) => unknown;
  replayWindowMs?: number;
  deduplicationTtlMs?: number;
  now?: () => number;
}

export type WebhookOutcome = 'PROCESSED' | 'DUPLICATE' | 'INVALID_SIGNATURE' | 'MALFORMED' | 'STALE' | 'HANDLER_FAILED';

export interface WebhookResult {
  /** The HTTP status to answer with: 2xx stops the platform's retries, anything else asks for one. */
  status: number;
  outcome: WebhookOutcome;
  event?: WebhookEvent;
}

export type HeaderBag = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

export interface WebhookReceiver {
  handle(rawBody: Uint8Array | string, headers: HeaderBag): Promise<WebhookResult>;
}

export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const replayWindowMs = options.replayWindowMs ?? REPLAY_WINDOW_MS;
  const ttlMs = options.deduplicationTtlMs ?? DEDUPLICATION_TTL_MS;
  const now = options.now ?? Date.now;
  const secrets = typeof options.secrets === 'function' ? options.secrets : () => options.secrets as readonly string[];

  return {
    async handle(rawBody, headers) {
      // Over the bytes as received: parsing and re-serialising first would change them.
      if (!verifySignature(rawBody, headerOf(headers, 'signature'), secrets())) {
        return { status: 401, outcome: 'INVALID_SIGNATURE' };
      }
      const event = parseEvent(rawBody);
      if (!event) return { status: 400, outcome: 'MALFORMED' };
      if (now() - Date.parse(event.occurred_at) > replayWindowMs) return { status: 400, outcome: 'STALE', event };
      if (!(await options.store.remember(event.event_id, ttlMs))) return { status: 200, outcome: 'DUPLICATE', event };
      try {
        await options.onEvent(event);
      } catch {
        await options.store.forget(event.event_id);
        return { status: 500, outcome: 'HANDLER_FAILED', event };
      }
      return { status: 200, outcome: 'PROCESSED', event };
    },
  };
}

/** HTTP header names are case-insensitive (section 5.3 item 1). */
function headerOf(headers: HeaderBag, name: string): string | undefined {
  if (typeof headers.get === 'function') return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  for (const [key, value] of Object.entries(headers as Record<string, string | string[] | undefined>)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function parseEvent(rawBody: Uint8Array | string): WebhookEvent | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody).toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { event_id, event_type, occurred_at, data } = parsed as Record<string, unknown>;
  const valid =
    typeof event_id === 'string' &&
    typeof event_type === 'string' &&
    typeof occurred_at === 'string' &&
    !Number.isNaN(Date.parse(occurred_at)) &&
    typeof data === 'object' &&
    data !== null;
  return valid ? (parsed as WebhookEvent) : undefined;
}
