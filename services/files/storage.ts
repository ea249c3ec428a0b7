import type { Readable } from 'node:stream';

/**
 * Where generated files live (report CSVs, settlement files, statements): local disk by
 * default, any object store behind the same four calls. Keys are relative paths such as
 * `reports/rprt_…/report.csv`; they never come from a request.
 */
export interface FileStorage {
  /** Streams `body` to `key`; readers see the old file or the whole new one, never a part. */
  write(key: string, body: Readable | AsyncIterable<string | Uint8Array>): Promise<{ bytes: number }>;
  /** Undefined when no file is stored under `key`. */
  read(key: string): Promise<Readable | undefined>;
  /** Removes `key`; removing a missing file is not an error. */
  remove(key: string): Promise<void>;
}
