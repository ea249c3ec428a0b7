/**
 * What a failed delivery attempt shows in its `error` (docs/webhooks.md): a fixed vocabulary.
 * The network stack's own text would describe the operator's network to the merchant (which
 * names resolve, which hosts answer, with what).
 */
export const DELIVERY_FAILURES = {
  /** No complete answer within WEBHOOK_DELIVERY_TIMEOUT_MS. */
  TIMEOUT: 'TIMEOUT',
  /** The receiver's address refused the connection. */
  CONNECTION_REFUSED: 'CONNECTION_REFUSED',
  /** The TLS handshake failed: certificate not trusted, expired or for another name; protocol mismatch. */
  TLS_ERROR: 'TLS_ERROR',
  /** The host name did not resolve. */
  DNS_ERROR: 'DNS_ERROR',
  /** The host resolved to an address deliveries may not go to (domain/webhook-destination.ts); nothing was sent. */
  ADDRESS_REFUSED: 'ADDRESS_REFUSED',
  /** Any other failure of the connection or of the answer (reset, unreachable, not HTTP). */
  CONNECTION_ERROR: 'CONNECTION_ERROR',
} as const;

export type DeliveryFailure = (typeof DELIVERY_FAILURES)[keyof typeof DELIVERY_FAILURES] | `HTTP_${number}`;

/** A 2xx answer: the receiver has the event. */
export function isSuccessStatus(status: number | null): boolean {
  return status !== null && status >= 200 && status < 300;
}

/** A non-2xx answer. */
export function httpFailure(status: number): DeliveryFailure {
  return `HTTP_${status}`;
}
