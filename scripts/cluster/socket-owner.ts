import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/**
 * Which of `pids` holds the client end of a loopback TCP connection, from the connection as its
 * server sees it (the client's port, the server's port): the socket's inode from the kernel's
 * table, then the process with a file descriptor on it. Linux only (/proc), like the cluster run.
 * Undefined when no candidate holds it (the process is gone, or is not one of ours).
 */
export function socketOwner(clientPort: number, serverPort: number, pids: number[]): number | undefined {
  const inode = clientSocketInode(clientPort, serverPort);
  if (inode === undefined) return undefined;
  const link = `socket:[${inode}]`;
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (readlinkSync(`/proc/${pid}/fd/${fd}`) === link) return pid;
      } catch {
        // Closed while we looked.
      }
    }
  }
  return undefined;
}

/** The inode of the socket whose local port is `clientPort` and remote port `serverPort`. */
function clientSocketInode(clientPort: number, serverPort: number): string | undefined {
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      if (portOf(fields[1]!) === clientPort && portOf(fields[2]!) === serverPort) return fields[9];
    }
  }
  return undefined;
}

/** `0100007F:9575` → 38261: the port is the hexadecimal part after the colon. */
function portOf(address: string): number {
  return parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
}
