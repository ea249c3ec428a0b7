import type { Client } from 'pg';

/**
 * `COPY … FROM STDIN` of one chunk of rows over a `pg` client, without a streaming library: what
 * pg-copy-streams does for a chunk held in memory. The client sends the statement, PostgreSQL
 * answers CopyInResponse, the rows go in one CopyData message, then CopyDone.
 */
class CopyIn {
  private settle!: (error?: Error) => void;
  readonly finished = new Promise<void>((resolve, reject) => {
    this.settle = (error) => (error ? reject(error) : resolve());
  });
  private failure: Error | undefined;

  constructor(
    private readonly text: string,
    private readonly rows: Buffer,
  ) {}

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  handleCopyInResponse(connection: { sendCopyFromChunk(chunk: Buffer): void; endCopyFrom(): void }): void {
    connection.sendCopyFromChunk(this.rows);
    connection.endCopyFrom();
  }

  handleCommandComplete(): void {}

  handleError(error: Error): void {
    this.failure = error;
  }

  handleReadyForQuery(): void {
    this.settle(this.failure);
  }
}

/** Copies `rows` (COPY's text format, one line per row) into `table` and waits for PostgreSQL to be done with them. */
export function copyRows(client: Client, table: string, columns: string[], rows: Buffer): Promise<void> {
  const copy = new CopyIn(`COPY ${table} (${columns.join(', ')}) FROM STDIN`, rows);
  void client.query(copy as never);
  return copy.finished;
}

/** A value as a field of COPY's text format. */
export function copyField(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}
