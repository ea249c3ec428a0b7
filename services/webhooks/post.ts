import { promises as dns, type LookupAddress } from 'node:dns';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { DELIVERY_FAILURES, httpFailure, isSuccessStatus, type DeliveryFailure } from '../../domain/webhook-delivery-failure';
import { destinationAllowed, unbracketed } from '../../domain/webhook-destination';

/**
 * How much of a receiver's answer is read before the connection is closed: enough for any
 * receiver that answers as section 6.1 asks, little enough that a hostile one cannot fill the
 * worker's memory. Nothing of the body is kept.
 */
export const MAX_RESPONSE_BYTES = 64 * 1024;

/** What one POST to a receiver came to: its status, or why there is none, and how long it took. */
export interface Answer {
  responseStatus: number | null;
  error: DeliveryFailure | null;
  durationMs: number;
}

/** Every address a host name resolves to (an IP literal resolves to itself). */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export interface PostOptions {
  /** Covers everything: resolution, connection, TLS, request and the answer's body. */
  timeoutMs: number;
  allowLoopback: boolean;
  resolve?: Resolve;
}

const systemResolve: Resolve = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * An idle kept-alive connection is closed after this long, before the 5 s after which Node's own
 * HTTP server (and most others, later) closes it: reusing a connection the receiver is closing at
 * that instant fails the attempt (seen in the bench as CONNECTION_ERROR under load, when the
 * worker's timers ran late).
 */
export const IDLE_CONNECTION_MS = 4_000;

// Kept-alive connections to the receivers: each was opened to an address checked when it was.
// The agents' timeout closes idle connections only; a request's own deadline is its AbortSignal.
const agents = {
  http: new HttpAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
  https: new HttpsAgent({ keepAlive: true, timeout: IDLE_CONNECTION_MS }),
};

/**
 * POSTs once and describes the answer; never throws for what the receiver (or its DNS) did.
 * The host is resolved here and every address checked (domain/webhook-destination.ts); the
 * connection then goes to those addresses and no others, whatever a second resolution would
 * say, so a name cannot pass the check and then lead inside. TLS still verifies the host name
 * and sends it as SNI, and the Host header carries it.
 */
export async function post(url: string, body: Buffer, signature: string, options: PostOptions): Promise<Answer> {
  const started = performance.now();
  const answer = (responseStatus: number | null, error: DeliveryFailure | null): Answer => ({
    responseStatus,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  const signal = AbortSignal.timeout(options.timeoutMs);
  const target = new URL(url);

  let addresses: LookupAddress[];
  try {
    addresses = await untilAborted((options.resolve ?? systemResolve)(unbracketed(target.hostname)), signal);
  } catch {
    return answer(null, signal.aborted ? DELIVERY_FAILURES.TIMEOUT : DELIVERY_FAILURES.DNS_ERROR);
  }
  // Every address, not just the first: the connection may use any of them.
  if (addresses.length === 0 || !addresses.every((a) => destinationAllowed(a.address, options.allowLoopback))) {
    return answer(null, DELIVERY_FAILURES.ADDRESS_REFUSED);
  }

  try {
    const status = await send(target, body, signature, addresses, signal);
    return answer(status, isSuccessStatus(status) ? null : httpFailure(status));
  } catch (error) {
    return answer(null, signal.aborted ? DELIVERY_FAILURES.TIMEOUT : (error as SendError).failure ?? DELIVERY_FAILURES.CONNECTION_ERROR);
  }
}

interface SendError extends Error {
  failure?: DeliveryFailure;
}

function send(target: URL, body: Buffer, signature: string, addresses: LookupAddress[], signal: AbortSignal): Promise<number> {
  const secure = target.protocol === 'https:';
  // Node asks for every address when it races IPv4 and IPv6 (autoSelectFamily), else for one.
  const pinned: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
  return new Promise<number>((resolve, reject) => {
    // Set once TCP is up and until TLS is: a failure in between is the handshake's.
    let handshaking = false;
    const request = (secure ? httpsRequest : httpRequest)(
      target,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': body.length,
          signature,
          'user-agent': 'billing-platform-webhooks/1',
        },
        agent: secure ? agents.https : agents.http,
        lookup: pinned,
        signal,
      },
      // Redirects are not followed (node:http never does): a 3xx is an answer like any other
      // non-2xx, and following it would send the signed body somewhere the merchant did not register.
      (response) => readCapped(response).then(() => resolve(response.statusCode!), reject),
    );
    request.on('socket', (socket: Socket) => {
      if (!secure || !socket.connecting) return;
      socket.once('connect', () => (handshaking = true));
      socket.once('secureConnect', () => (handshaking = false));
    });
    request.on('error', (error: SendError) => {
      const code = (error as NodeJS.ErrnoException).code;
      error.failure =
        code === 'ECONNREFUSED' ? DELIVERY_FAILURES.CONNECTION_REFUSED : handshaking ? DELIVERY_FAILURES.TLS_ERROR : DELIVERY_FAILURES.CONNECTION_ERROR;
      reject(error);
    });
    request.end(body);
  });
}

/** Reads at most MAX_RESPONSE_BYTES of the answer, keeping none of it, then closes the connection. */
async function readCapped(response: IncomingMessage): Promise<void> {
  let read = 0;
  for await (const chunk of response) {
    read += (chunk as Buffer).length;
    // Leaving the loop destroys the response and its socket: the rest is never read.
    if (read >= MAX_RESPONSE_BYTES) break;
  }
}

/** `work`, or the signal's reason once it aborts first (a DNS lookup cannot be cancelled). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
