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

/**
 * A TCP port below 32768 that nothing listens on. The Temporal server stores its membership ports
 * in a `smallint` column, while every port `bind(0)` hands out is in Linux's ephemeral range
 * (32768 and up); ports below it are never handed out by the kernel, so only another process
 * choosing the same number by hand could take one before the server binds it.
 */
export async function freeLowPort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const server = net.createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
  throw new Error('no free TCP port between 20000 and 32000');
}
