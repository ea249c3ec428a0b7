import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long a socket ended after its last answer may wait for the client's side before it is destroyed. */
const END_GRACE_MS = 1_000;

/**
 * Lets `close()` finish as soon as the requests in flight have been answered. Node's own
 * `server.close()` leaves open every keep-alive socket it does not count as idle, which includes
 * sockets a browser opened ahead of need and sockets whose last request it still thinks is being
 * read: the close then waited for the keep-alive timeout (72 s) or, in a stopping process, for
 * SHUTDOWN_TIMEOUT_MS before exiting with an error. Here a socket with no request in flight is
 * closed when the close begins; one with a request in flight is answered with `Connection:
 * close`, then ended (not destroyed: a reset could discard the answer's last bytes).
 */
export function drainConnectionsOnClose(app: FastifyInstance): void {
  const inFlight = new Map<Socket, number>();
  const answering = new Set<ServerResponse>();
  let closing = false;

  app.server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  app.server.on('request', (request, response) => {
    const socket: Socket = request.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    answering.add(response);
    // 'close' follows 'finish' (the answer handed to the OS) and also comes when the client went away.
    response.once('close', () => {
      answering.delete(response);
      // The socket closed first (a client that went away): it is no longer tracked.
      if (!inFlight.has(socket)) return;
      const left = inFlight.get(socket)! - 1;
      inFlight.set(socket, left);
      if (closing && left === 0) {
        socket.end();
        setTimeout(() => socket.destroy(), END_GRACE_MS).unref();
      }
    });
  });
  app.addHook('preClose', (done) => {
    closing = true;
    for (const [socket, requests] of inFlight) if (requests === 0) socket.destroy();
    // Their clients must not send another request on these sockets. Set here, not in a hook
    // that every request would run.
    for (const response of answering) if (!response.headersSent) response.setHeader('connection', 'close');
    done();
  });
}
