import { Prisma } from '../../generated/prisma/client';
import type { Database } from '../../prisma/client';

/**
 * `customers/list`'s `name` filter (docs/customers.md, "Search by name"): a case-insensitive
 * prefix of the full name (first name, a space, last name), of the last name or of the business
 * name. Each expression here is, character for character, one of the `(account_id, lower(…)
 * text_pattern_ops)` indexes of migration `customer_name_prefix_indexes`, so PostgreSQL answers
 * from those indexes instead of reading the account's customers.
 */

/** LIKE's wildcards and its escape character taken literally: the prefix is text, not a pattern. */
function likePrefix(prefix: string): Prisma.Sql {
  const literal = prefix.replace(/[\\%_]/g, (character) => `\\${character}`);
  return Prisma.sql`lower(${literal}::text) || '%'`;
}

export interface NameSearch {
  accountId: string;
  /** The key's channels, or null for all of the account's. */
  channelIds: string[] | null;
  prefix: string;
}

/** Ids of the matching customers below `beforeId`, newest first, at most `limit`. */
export function namePrefixQuery(search: NameSearch, beforeId: string | undefined, limit: number): Prisma.Sql {
  const pattern = likePrefix(search.prefix);
  return Prisma.sql`
    SELECT id FROM customers
    WHERE account_id = ${search.accountId}
      AND (lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '')) LIKE ${pattern}
        OR lower(last_name) LIKE ${pattern}
        OR lower(business_details ->> 'name') LIKE ${pattern})
      ${search.channelIds ? Prisma.sql`AND channel_id = ANY(${search.channelIds}::text[])` : Prisma.empty}
      ${beforeId ? Prisma.sql`AND id < ${beforeId}` : Prisma.empty}
    ORDER BY id DESC
    LIMIT ${limit}`;
}

/** Name matches are read this many at a time, then narrowed by the list's other filters. */
const CHUNK = 200;

/**
 * Up to `take` customers matching the name below `beforeId`, newest first: the name's matches
 * come from its indexes a chunk at a time, and `narrow` keeps those of a chunk that pass the
 * list's other filters, until `take` rows are found or the matches run out.
 */
export async function customersByNamePrefix<Row extends { id: string }>(
  db: Database,
  search: NameSearch,
  beforeId: string | undefined,
  take: number,
  narrow: (ids: string[], take: number) => Promise<Row[]>,
): Promise<Row[]> {
  const rows: Row[] = [];
  let after = beforeId;
  for (;;) {
    const chunk = await db.$queryRaw<Array<{ id: string }>>(namePrefixQuery(search, after, CHUNK));
    if (chunk.length === 0) return rows;
    rows.push(...(await narrow(chunk.map((row) => row.id), take - rows.length)));
    if (rows.length >= take || chunk.length < CHUNK) return rows;
    after = chunk[chunk.length - 1]!.id;
  }
}
