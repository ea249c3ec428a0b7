import { connect, type Socket } from 'node:net';
import { buildServer } from '../../api/http/server';
import { RateLimiter } from '../../api/rate-limit/token-bucket';
import { usePlatform } from '../support/platform';

const platform = usePlatform();

interface Client {
  socket: Socket;
  /** Everything the server has sent so far. */
  received: () => string;
  closed: Promise<void>;
}

async function client(port: number): Promise<Client> {
  const socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString('latin1')));
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => text, closed };
}

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function settledWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true), late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('closing the API server (docs/deployment.md, "Stopping")', () => {
  it('closes idle and unused keep-alive connections at once, answers the request in flight, then finishes', async () => {
    const server = buildServer({ db: platform.db, temporal: platform.env.client, rateLimiter: new RateLimiter(() => ({ ratePerSecond: 100, burst: 100 })) });
    await server.listen({ port: 0, host: '127.0.0.1' });
    const port = (server.server.address() as { port: number }).port;

    // Answered and kept alive, as a browser keeps it.
    const idle = await client(port);
    idle.socket.write('GET /health/live HTTP/1.1\r\nHost: api\r\nConnection: keep-alive\r\n\r\n');
    await until(() => idle.received().includes('"live"'), 5_000);
    // Opened ahead of need, as browsers do, and never used.
    const unused = await client(port);
    // A request whose body is still arriving when the close begins.
    const body = JSON.stringify({ id: 'cus_0' });
    const inFlight = await client(port);
    const arrived = new Promise<void>((resolve) => server.server.once('request', () => resolve()));
    inFlight.socket.write(`POST /v2/customers/get HTTP/1.1\r\nHost: api\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 4)}`);
    await arrived;

    const closing = server.close();
    try {
      expect(await settledWithin(Promise.all([idle.closed, unused.closed]), 3_000)).toBe(true);
      expect(await settledWithin(closing, 200)).toBe(false);

      inFlight.socket.write(body.slice(4));
      expect(await settledWithin(inFlight.closed, 5_000)).toBe(true);
      const answer = inFlight.received();
      expect(answer).toMatch(/^HTTP\/1\.1 401 /);
      // Told, so it would not have sent another request on the socket being closed.
      expect(answer.slice(0, answer.indexOf('\r\n\r\n'))).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'UNAUTHENTICATED' });
      expect(await settledWithin(closing, 3_000)).toBe(true);
    } finally {
      server.server.closeAllConnections();
      await closing;
    }
  });
});
