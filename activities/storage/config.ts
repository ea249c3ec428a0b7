import { join, resolve } from 'node:path';
import type { FileStorage } from './file-storage';
import { LocalDiskStorage } from './local-disk';

/** STORAGE_DIR, else `<DATA_DIR>/files`, else `.data/files` under the project (docs/configuration.md). */
export function fileStorageFromEnv(env: NodeJS.ProcessEnv = process.env): FileStorage {
  const dir = env.STORAGE_DIR ?? join(env.DATA_DIR ?? resolve(__dirname, '../../.data'), 'files');
  return new LocalDiskStorage(dir);
}
