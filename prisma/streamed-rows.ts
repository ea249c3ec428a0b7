import { Query, type Client, type Pool, type QueryArrayConfig, type QueryConfig } from 'pg';

/**
 * Streams the rows of ONE SQL statement in batches, as PostgreSQL sends them: one snapshot, one
 * plan, no re-planning or index re-descent per page, and (unlike a cursor or a row-limited
 * portal) a plan PostgreSQL may run in parallel. Rows are arrays of cells in the select list's
 * order, parsed by pg's default type parsers.
 *
 * Back-pressure: when `aheadBatches` batches wait for the consumer, the connection's socket is
 * paused, so PostgreSQL blocks on its send and memory holds those batches plus the socket
 * buffers, whatever the result's size. A consumer that stops early (an error, a cancelled
 * export) destroys the connection instead of returning it to the pool half-read: the server
 * sees the socket close and cancels the statement.
 */
export async function* streamedRows(pool: Pool, text: string, values: unknown[], batchRows: number, aheadBatches = 2): AsyncGenerator<unknown[][]> {
  const client = await pool.connect();
  // pg exposes the socket only on its Client; a pooled client is one.
  const socket = (client as unknown as Client).connection.stream;
  const ready: unknown[][][] = [];
  let batch: unknown[][] = [];
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };

  // The typings leave rowMode out of the Query constructor; pg reads it there.
  const query = new Query({ text, values, rowMode: 'array' } satisfies QueryArrayConfig as QueryConfig);
  query.on('row', (row: unknown[]) => {
    batch.push(row);
    if (batch.length < batchRows) return;
    ready.push(batch);
    batch = [];
    if (ready.length >= aheadBatches) socket.pause();
    notify();
  });
  query.on('end', () => {
    ended = true;
    notify();
  });
  query.on('error', (error: Error) => {
    failure = error;
    notify();
  });
  client.query(query);

  let finished = false;
  try {
    for (;;) {
      const next = ready.shift();
      if (next) {
        if (ready.length < aheadBatches) socket.resume();
        yield next;
        continue;
      }
      if (failure) throw failure;
      if (ended) break;
      await new Promise<void>((resolve) => (wake = resolve));
    }
    if (batch.length > 0) yield batch;
    finished = true;
  } finally {
    // A connection that failed or was left mid-statement is destroyed, never reused.
    client.release(finished ? undefined : (failure ?? new Error('Rows abandoned before the statement finished.')));
  }
}
