import { join, resolve } from 'node:path';
import type { FileStorage } from './file-storage';
import { LocalDiskStorage } from './local-disk';
import { s3StorageFromEnv } from './s3';

/**
 * FILE_STORAGE: `local` (the default) or `s3` (docs/configuration.md). Local: STORAGE_DIR, else
 * `<DATA_DIR>/files`, else `.data/files` under the project.
 */
export function fileStorageFromEnv(env: NodeJS.ProcessEnv = process.env): FileStorage {
  const kind = env.FILE_STORAGE ?? 'local';
  if (kind === 's3') return s3StorageFromEnv(env);
  if (kind !== 'local') throw new Error(`FILE_STORAGE must be local or s3, not ${kind} (docs/configuration.md).`);
  const dir = env.STORAGE_DIR ?? join(env.DATA_DIR ?? resolve(__dirname, '../../.data'), 'files');
  return new LocalDiskStorage(dir);
}
