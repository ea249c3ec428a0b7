import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStorage } from './storage';

/** FileStorage on a directory: written to a temporary name, then renamed into place. */
export class LocalDiskStorage implements FileStorage {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private pathOf(key: string): string {
    const path = resolve(join(this.root, key));
    if (!path.startsWith(this.root + sep)) throw new Error(`Storage key escapes the storage root: ${key}`);
    return path;
  }

  async write(key: string, body: Readable | AsyncIterable<string | Uint8Array>): Promise<{ bytes: number }> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${process.pid}.${Date.now()}.partial`;
    try {
      // One chunk read ahead at most: a generator's chunks (a report's pages) wait in the generator, not in memory.
      await pipeline(body instanceof Readable ? body : Readable.from(body, { highWaterMark: 1 }), createWriteStream(temporary, { mode: 0o600 }));
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return { bytes: (await stat(path)).size };
  }

  async read(key: string): Promise<Readable | undefined> {
    const path = this.pathOf(key);
    try {
      await stat(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return createReadStream(path);
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }
}
