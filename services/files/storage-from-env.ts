import { join } from 'node:path';
import { PROJECT_ROOT } from '../project-root';
import type { FileStorage } from './storage';
import { LocalDiskStorage } from './local-disk-storage';

/**
 * FILE_STORAGE: `local` (the default) or `s3` (docs/configuration.md). Local: STORAGE_DIR, else
 * `<DATA_DIR>/files`, else `.data/files` under the project.
 */
export function fileStorageFromEnv(env: NodeJS.ProcessEnv = process.env): FileStorage {
  const kind = env.FILE_STORAGE ?? 'local';
  // Loaded only when chosen: the AWS SDK costs about 170 ms of CPU to load, which every API and
  // worker start (and each test file) paid for storage on local disk.
  if (kind === 's3') return (require('./s3-storage') as typeof import('./s3-storage')).s3StorageFromEnv(env);
  if (kind !== 'local') throw new Error(`FILE_STORAGE must be local or s3, not ${kind} (docs/configuration.md).`);
  const dir = env.STORAGE_DIR ?? join(env.DATA_DIR ?? join(PROJECT_ROOT, '.data'), 'files');
  return new LocalDiskStorage(dir);
}
