import net from 'node:net';

/**
 * A TCP port on 127.0.0.1 that nothing listens on and that the kernel will not hand out again
 * for a while.
 *
 * Listening on port 0 and closing is not enough: Linux randomises ephemeral ports and may give
 * the same one to the next `bind(0)`, and the Temporal dev server picks its internal service
 * ports exactly that way, so a port chosen here could be taken before our server binds it
 * (CI saw the dev server die on a gRPC listener it could not open). As the Temporal CLI does
 * for its own ports, we connect to the port and close the accepted socket first: the port then
 * sits in TIME_WAIT (60 s on Linux), where `bind(0)` skips it while an explicit bind with
 * SO_REUSEADDR (Node, Go and PostgreSQL all set it) still succeeds.
 */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as net.AddressInfo;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('connection', (accepted) => {
        // The accepting side closes first, so it is this side's port that enters TIME_WAIT.
        accepted.destroy();
        resolve();
      });
      const client = net.connect({ host: '127.0.0.1', port });
      client.once('error', reject);
      client.once('close', () => client.destroy());
      client.once('end', () => client.end());
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  return port;
}
