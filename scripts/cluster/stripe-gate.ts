import http, { type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { socketOwner } from './socket-owner';

/** The Stripe calls that move money: a PaymentIntent created or confirmed, a Refund created. */
export type MoneyCall = 'charge' | 'refund';

/** A money call Stripe processed and answered, its answer held back from the process that asked. */
export interface HeldAnswer {
  pid: number;
  call: MoneyCall;
  /** The request's fields (the SDK sends them form-encoded). */
  form: URLSearchParams;
  /** Stripe's status code. */
  status: number;
  /** The asking process still waits for the answer: its connection is open. */
  waiting: boolean;
}

/**
 * Holds back Stripe's answers to one process: the first of its candidates to send a charge
 * becomes its victim, and from then on every charge and refund the victim sends is processed by
 * Stripe and never answered. Killing the victim then lands after Stripe moved the money and
 * before the process could record it: the crash the charge path's books are for.
 */
export interface Trap {
  victim(): number | undefined;
  /** Resolves with the first held answer to `call` matching `match`, or undefined after `timeoutMs`. */
  caught(call: MoneyCall, timeoutMs: number, match?: (form: URLSearchParams) => boolean): Promise<HeldAnswer | undefined>;
  /** Held answers to `call` that the victim is still waiting for. */
  waiting(call: MoneyCall): HeldAnswer[];
  /** Stops holding; answers still held are dropped with their connections. */
  end(): void;
}

/** A pass-through HTTP proxy in front of a Stripe emulator, able to set one trap at a time. */
export interface StripeGate {
  url: string;
  trap(candidates: number[]): Trap;
  close(): Promise<void>;
}

function moneyCallOf(method: string | undefined, path: string): MoneyCall | undefined {
  if (method !== 'POST') return undefined;
  if (path === '/v1/payment_intents' || /^\/v1\/payment_intents\/[^/]+\/confirm$/.test(path)) return 'charge';
  if (path === '/v1/refunds') return 'refund';
  return undefined;
}

class ArmedTrap implements Trap {
  private victimPid: number | undefined;
  private readonly held: Array<HeldAnswer & { response: ServerResponse }> = [];
  private listeners: Array<(answer: HeldAnswer) => void> = [];
  // A connection belongs to one process for its whole life: looked up once, at its first money call.
  private readonly owners = new WeakMap<Socket, number | undefined>();
  ended = false;

  constructor(private readonly candidates: number[]) {}

  /** The candidate at the other end of `socket`, a connection to the gate's `port`. */
  ownerOf(socket: Socket, port: number): number | undefined {
    if (!this.owners.has(socket)) this.owners.set(socket, socketOwner(socket.remotePort!, port, this.candidates));
    return this.owners.get(socket);
  }

  victim(): number | undefined {
    return this.victimPid;
  }

  /** Whether the answer to this call of `pid` is to be held; the first charge of a candidate picks the victim. */
  takes(pid: number | undefined, call: MoneyCall): boolean {
    if (this.ended || pid === undefined) return false;
    if (this.victimPid === undefined && call === 'charge' && this.candidates.includes(pid)) this.victimPid = pid;
    return pid === this.victimPid;
  }

  hold(answer: HeldAnswer, response: ServerResponse): void {
    const entry = { ...answer, response };
    this.held.push(entry);
    response.once('close', () => (entry.waiting = false));
    for (const listener of this.listeners) listener(entry);
  }

  caught(call: MoneyCall, timeoutMs: number, match: (form: URLSearchParams) => boolean = () => true): Promise<HeldAnswer | undefined> {
    const fits = (answer: HeldAnswer) => answer.call === call && match(answer.form);
    const already = this.held.find(fits);
    if (already) return Promise.resolve(already);
    return new Promise((resolve) => {
      const listener = (answer: HeldAnswer) => {
        if (!fits(answer)) return;
        done(answer);
      };
      const timer = setTimeout(() => done(undefined), timeoutMs);
      const done = (answer: HeldAnswer | undefined) => {
        clearTimeout(timer);
        this.listeners = this.listeners.filter((l) => l !== listener);
        resolve(answer);
      };
      this.listeners.push(listener);
    });
  }

  waiting(call: MoneyCall): HeldAnswer[] {
    return this.held.filter((answer) => answer.call === call && answer.waiting);
  }

  end(): void {
    this.ended = true;
    for (const answer of this.held) answer.response.destroy();
  }
}

/** A gate in front of `target` (the emulator's base URL) on a free loopback port. */
export async function startStripeGate(target: string): Promise<StripeGate> {
  const upstream = new URL(target);
  const agent = new http.Agent({ keepAlive: true });
  let trap: ArmedTrap | undefined;
  let port = 0;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const call = moneyCallOf(request.method, new URL(request.url ?? '/', 'http://gate').pathname);
      const armed = trap && !trap.ended && call ? trap : undefined;
      const pid = armed?.ownerOf(request.socket, port);
      const holds = armed !== undefined && call !== undefined && armed.takes(pid, call);
      const { host: _host, connection: _connection, ...headers } = request.headers;
      const forwarded = http.request(
        { host: upstream.hostname, port: upstream.port, method: request.method, path: request.url, headers, agent },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (part: Buffer) => parts.push(part));
          answer.on('end', () => {
            if (holds) {
              armed!.hold({ pid: pid!, call: call!, form: new URLSearchParams(body.toString('utf8')), status: answer.statusCode ?? 0, waiting: true }, response);
              return;
            }
            const { connection: _c, 'transfer-encoding': _t, 'keep-alive': _k, ...answerHeaders } = answer.headers;
            response.writeHead(answer.statusCode ?? 502, answerHeaders);
            response.end(Buffer.concat(parts));
          });
        },
      );
      forwarded.on('error', (error) => {
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(String(error));
      });
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    trap(candidates) {
      trap?.end();
      trap = new ArmedTrap(candidates);
      return trap;
    },
    async close() {
      trap?.end();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      agent.destroy();
    },
  };
}
