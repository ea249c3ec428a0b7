import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { IDLE_CONNECTION_MS, MAX_RESPONSE_BYTES, post, type PostOptions, type Resolve } from '../../services/webhooks/post';
import { waitFor } from './receiver';

const servers: { close(): unknown }[] = [];
afterAll(() => servers.forEach((s) => s.close()));

/** A receiver on 127.0.0.1 that counts connections and records each request's Host header. */
async function receiver(handle: Parameters<typeof createServer>[1] = (_req, res) => res.end('ok')) {
  const seen = { connections: 0, hosts: [] as (string | undefined)[] };
  const server: Server = createServer((req, res) => {
    seen.hosts.push(req.headers.host);
    handle!(req, res);
  });
  server.on('connection', () => seen.connections++);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  servers.push({ close: () => (server.closeAllConnections(), server.close()) });
  return { port: (server.address() as AddressInfo).port, seen };
}

const body = Buffer.from('{"event_id":"evt_1"}');
const to = (addresses: string[]): Resolve => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const send = (url: string, options: Partial<PostOptions> = {}) => post(url, body, 'sig', { timeoutMs: 2_000, allowLoopback: true, ...options });

describe('the address a delivery connects to', () => {
  it('is the one checked: the name is not resolved again, and stays in the Host header', async () => {
    const { port, seen } = await receiver();
    // hooks.test resolves nowhere (RFC 6761): only the checked address can have been used.
    const answer = await send(`http://hooks.test:${port}/in`, { resolve: to(['127.0.0.1']) });
    expect(answer).toMatchObject({ responseStatus: 200, error: null });
    expect(seen.hosts).toEqual([`hooks.test:${port}`]);
  });

  it('keeps the name for TLS: sent as SNI and verified', async () => {
    const names: string[] = [];
    const tls = createTlsServer({ SNICallback: (name, done) => (names.push(name), done(new Error('no certificate for it'), undefined)) });
    await new Promise<void>((done) => tls.listen(0, '127.0.0.1', done));
    servers.push(tls);
    const answer = await send(`https://hooks.test:${(tls.address() as AddressInfo).port}/in`, { resolve: to(['127.0.0.1']) });
    expect(answer).toMatchObject({ responseStatus: null, error: 'TLS_ERROR' });
    expect(names).toEqual(['hooks.test']);
  });

  it('is refused, before any connection, when any resolved address is internal', async () => {
    const { port, seen } = await receiver();
    const refused = { responseStatus: null, error: 'ADDRESS_REFUSED' };
    expect(await send(`https://hooks.test/`, { resolve: to(['93.184.216.34', '10.0.0.1']) })).toMatchObject(refused);
    expect(await send(`https://hooks.test/`, { resolve: to(['2606:4700:4700::1111', 'fd00::1']) })).toMatchObject(refused);
    expect(await send(`https://hooks.test/`, { resolve: to(['169.254.169.254']) })).toMatchObject(refused);
    expect(await send(`https://hooks.test/`, { resolve: to([]) })).toMatchObject(refused);
    for (const loopback of ['127.0.0.1', '::ffff:127.0.0.1']) {
      expect(await send(`http://hooks.test:${port}/`, { resolve: to([loopback]), allowLoopback: false })).toMatchObject(refused);
    }
    // The system resolver: localhost is loopback, and so are literals however written.
    expect(await send(`http://localhost:${port}/`, { allowLoopback: false })).toMatchObject(refused);
    expect(await send(`http://2130706433:${port}/`, { allowLoopback: false })).toMatchObject(refused);
    expect(await send(`http://[::ffff:127.0.0.1]:${port}/`, { allowLoopback: false })).toMatchObject(refused);
    expect(seen.connections).toBe(0);
    expect(await send(`http://localhost:${port}/`, { allowLoopback: true })).toMatchObject({ responseStatus: 200 });
  });
});

describe('what a failure shows', () => {
  it('one of a fixed set of words, never the network stack’s text', async () => {
    const closed = await receiver();
    servers.pop()!.close();
    expect(await send(`http://127.0.0.1:${closed.port}/`)).toMatchObject({ responseStatus: null, error: 'CONNECTION_REFUSED' });

    const plain = await receiver();
    expect(await send(`https://127.0.0.1:${plain.port}/`)).toMatchObject({ responseStatus: null, error: 'TLS_ERROR' });

    expect(await send('https://hooks.invalid/')).toMatchObject({ responseStatus: null, error: 'DNS_ERROR' });

    const silent = await receiver(() => undefined);
    const timedOut = await send(`http://127.0.0.1:${silent.port}/`, { timeoutMs: 300 });
    expect(timedOut).toMatchObject({ responseStatus: null, error: 'TIMEOUT' });
    expect(timedOut.durationMs).toBeGreaterThanOrEqual(290);

    const failing = await receiver((_req, res) => res.writeHead(503).end('internal details'));
    expect(await send(`http://127.0.0.1:${failing.port}/`)).toMatchObject({ responseStatus: 503, error: 'HTTP_503' });

    const target = await receiver();
    const redirecting = await receiver((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${target.port}/` }).end());
    expect(await send(`http://127.0.0.1:${redirecting.port}/`)).toMatchObject({ responseStatus: 302, error: 'HTTP_302' });
    expect(target.seen.connections).toBe(0);

    const garbage = await receiver((req) => req.socket.end('not http at all\r\n\r\n'));
    expect(await send(`http://127.0.0.1:${garbage.port}/`)).toMatchObject({ responseStatus: null, error: 'CONNECTION_ERROR' });
  });
});

describe('the answer’s body', () => {
  it('is read up to 64 KiB, then the connection is closed: an endless body neither hangs nor fills memory', async () => {
    let closed = false;
    const { port } = await receiver((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      const pump = () => {
        while (!closed && res.write(chunk));
      };
      res.on('drain', pump);
      res.on('close', () => (closed = true));
      pump();
    });
    const answer = await send(`http://127.0.0.1:${port}/`, { timeoutMs: 10_000 });
    expect(answer).toMatchObject({ responseStatus: 200, error: null });
    expect(answer.durationMs).toBeLessThan(5_000);
    await waitFor('the receiver to see its connection closed', () => closed);
  });

  it('counts to exactly 64 KiB: a body that stalls just short of it is waited for, one that reaches it is not', async () => {
    const stalling = (bytes: number) => receiver((req, res) => (req.resume(), res.writeHead(200).write(Buffer.alloc(bytes, 0x61))));
    expect(MAX_RESPONSE_BYTES).toBe(64 * 1024);
    const short = await stalling(MAX_RESPONSE_BYTES - 1);
    expect(await send(`http://127.0.0.1:${short.port}/`, { timeoutMs: 500 })).toMatchObject({ responseStatus: null, error: 'TIMEOUT' });
    const enough = await stalling(MAX_RESPONSE_BYTES);
    expect(await send(`http://127.0.0.1:${enough.port}/`, { timeoutMs: 5_000 })).toMatchObject({ responseStatus: 200, error: null });
  });
});

describe('kept-alive connections', () => {
  it('are reused, closed by the sender when idle before a receiver’s 5 s, and do not cut a slower answer short', async () => {
    let open = 0;
    const server: Server = createServer((req, res) => setTimeout(() => res.end('ok'), req.url === '/slow' ? IDLE_CONNECTION_MS + 1_500 : 0));
    server.on('connection', (socket) => {
      open++;
      socket.on('close', () => open--);
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    servers.push({ close: () => (server.closeAllConnections(), server.close()) });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    expect(await send(`${url}/slow`, { timeoutMs: 10_000 })).toMatchObject({ responseStatus: 200, error: null });
    expect(await send(`${url}/fast`)).toMatchObject({ responseStatus: 200 });
    expect(open).toBe(1);
    await waitFor('the idle connection closed', () => open === 0, IDLE_CONNECTION_MS + 900);
  }, 20_000);
});
