import { z } from 'zod';
import { ApiError } from '../../domain/errors';

/** Documented in docs/pagination.md. */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const paginationRequest = z
  .strictObject({
    page_size: z.number().int().min(1).max(MAX_PAGE_SIZE),
    next_page_token: z.string().max(512).optional(),
  })
  .meta({ description: `Keyset pagination. page_size is at most ${MAX_PAGE_SIZE}; pass back next_page_token for the next page.` });

export const paginationResponse = z.object({
  page_size: z.number().int(),
  next_page_token: z.string().meta({ description: 'Empty on the last page.' }),
});

export type PaginationRequest = z.infer<typeof paginationRequest>;

/**
 * The token names the last row served, so the next page starts strictly after it whatever
 * was inserted meanwhile (keyset, not offset). It is bound to the filters it was issued for.
 */
interface Cursor {
  after: string;
  filters: string;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.after, cursor.filters]), 'utf8').toString('base64url');
}

const invalidToken = () =>
  ApiError.validation({
    'pagination.next_page_token': { type: 'FORMAT', message: 'Not a token issued for this list and these filters.' },
  });

export function decodeCursor(token: string, filtersFingerprint: string): string {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalidToken();
  }
  if (!Array.isArray(decoded) || typeof decoded[0] !== 'string' || decoded[1] !== filtersFingerprint) throw invalidToken();
  return decoded[0];
}

export interface Page<T> {
  items: T[];
  pagination: { page_size: number; next_page_token: string };
}

/**
 * Runs a keyset query ordered by id, newest first (ids are monotonic ULIDs, so id order is
 * creation order). `fetch` receives the id to start below and how many rows to read; one
 * extra row tells whether another page exists.
 */
export async function paginate<Row extends { id: string }, Item>(
  pagination: PaginationRequest | undefined,
  filtersFingerprint: string,
  fetch: (beforeId: string | undefined, take: number) => Promise<Row[]>,
  serialize: (row: Row) => Item,
): Promise<Page<Item>> {
  const pageSize = pagination?.page_size ?? DEFAULT_PAGE_SIZE;
  const before = pagination?.next_page_token ? decodeCursor(pagination.next_page_token, filtersFingerprint) : undefined;
  const rows = await fetch(before, pageSize + 1);
  const page = rows.slice(0, pageSize);
  const last = page[page.length - 1];
  const nextPageToken = rows.length > pageSize && last ? encodeCursor({ after: last.id, filters: filtersFingerprint }) : '';
  return { items: page.map(serialize), pagination: { page_size: pageSize, next_page_token: nextPageToken } };
}
