import { storedFileUrl } from './stored-file-url';

/**
 * One entry of an object's `files` array (section 2.7's shape, also given to monthly
 * statements): its type and status, and a short-lived `download_url` only once it SUCCEEDED.
 */
export interface StoredFileEntry<Type extends string, Status extends string> {
  type: Type;
  status: Status;
  download_url?: string;
}

export function storedFileEntry<Type extends string, Status extends string>(
  file: { type: Type; status: Status; storageKey: string | null; downloadName: string },
  now: Date,
  ttlSeconds: number,
): StoredFileEntry<Type, Status> {
  const url = file.status === 'SUCCEEDED' && file.storageKey ? storedFileUrl(file.storageKey, file.downloadName, now, ttlSeconds) : undefined;
  return { type: file.type, status: file.status, ...(url ? { download_url: url } : {}) };
}
