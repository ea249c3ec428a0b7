import { signPath } from '../../domain/signed-url';
import { publicUrl, urlSigningKey } from '../../services/files/config';

/**
 * Signed, expiring links to files in FileStorage (docs/reports.md, "Stored-file links"): report
 * CSVs, settlement and monthly statement files. The storage key is the path after `/files/stored/`; the download
 * name travels in the query and is signed with the path, so neither can be changed.
 */

/** 5 minutes: the link is fetched right after the redirect that hands it out. */
export const STORED_FILE_URL_TTL_SECONDS = 5 * 60;

export const STORED_FILE_ROUTE_PREFIX = '/files/stored/';

/**
 * One segment of a storage key, and a download name: plain characters only, so a key needs no
 * URL encoding (one spelling, one signature) and a name needs no quoting in Content-Disposition.
 */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

const CONTENT_TYPES: Record<string, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
  pdf: 'application/pdf',
  txt: 'text/plain; charset=utf-8',
  zip: 'application/zip',
};

/** True for keys such as `reports/rprt_…/report.csv`: plain segments, none of them `.` or `..`. */
export function isStoredFileKey(storageKey: string): boolean {
  const segments = storageKey.split('/');
  return segments.length <= 16 && segments.every((segment) => SEGMENT.test(segment) && !/^\.+$/.test(segment));
}

export function isStoredFileName(filename: string): boolean {
  return SEGMENT.test(filename) && !/^\.+$/.test(filename);
}

/** By the download name's extension; unknown ones are served as opaque bytes. */
export function storedFileContentType(filename: string): string {
  const extension = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  return (extension && CONTENT_TYPES[extension]) || 'application/octet-stream';
}

export function storedFilePath(storageKey: string): string {
  return `${STORED_FILE_ROUTE_PREFIX}${storageKey}`;
}

/** What the signature covers: the path and the download name. */
export function storedFileSignedSubject(storageKey: string, filename: string): string {
  return `${storedFilePath(storageKey)}?filename=${filename}`;
}

/**
 * A link to the stored file `storageKey`, downloaded as `filename` (its extension decides the
 * content type), valid for `ttlSeconds` from `now`. Undefined when URL_SIGNING_KEY is unset:
 * links are then off. Throws on a key or name outside the plain alphabet: both come from the
 * platform, never from a request.
 */
export function storedFileUrl(
  storageKey: string,
  filename: string,
  now: Date,
  ttlSeconds: number = STORED_FILE_URL_TTL_SECONDS,
): string | undefined {
  if (!isStoredFileKey(storageKey)) throw new RangeError(`Not a storage key that can be linked: ${storageKey}`);
  if (!isStoredFileName(filename)) throw new RangeError(`Not a download name that can be linked: ${filename}`);
  const key = urlSigningKey();
  if (!key) return undefined;
  const expires = Math.floor(now.getTime() / 1000) + ttlSeconds;
  return `${publicUrl()}${storedFilePath(storageKey)}?filename=${filename}&${signPath(key, storedFileSignedSubject(storageKey, filename), expires)}`;
}
