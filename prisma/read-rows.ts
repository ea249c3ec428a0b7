import type { Prisma } from '../generated/prisma/client';
import { ownPoolOf, type Database } from './client';

/** One read-only SQL statement with `$1`, `$2`… parameters, under a name unique in the process. */
export interface ReadStatement {
  readonly name: string;
  readonly text: string;
}

const names = new Set<string>();

/**
 * Declares a statement for `readRows`. pg prepares a named statement once per connection and
 * refuses a second text under the same name, so a name declared twice is a programming error
 * caught when the module loads, not on some connection later.
 */
export function readStatement(name: string, text: string): ReadStatement {
  if (names.has(name)) throw new Error(`The read statement ${name} is declared twice.`);
  names.add(name);
  return { name, text };
}

/**
 * The rows of `statement`. Outside a transaction (a client of `createDatabase`) it goes straight
 * over the pool Prisma's client sits on, prepared once per connection: the same read through
 * Prisma's `$queryRaw` costs about 0.2 ms more CPU, its `findFirst` 0.3 ms more (issue 13; a
 * read-only request spends most of its CPU there). Inside a transaction it goes through Prisma on
 * the transaction's connection, so it sees what the transaction wrote. Rows come parsed by pg's
 * type parsers either way, which give what Prisma's raw queries give for the types these
 * statements select (text, int4, json, timestamptz); arrays are selected as JSON: pg parses an
 * array's text form character by character (0.1 ms for an API key's 72 permissions).
 */
export async function readRows<T>(db: Database | Prisma.TransactionClient, statement: ReadStatement, values: readonly unknown[]): Promise<T[]> {
  const pool = ownPoolOf(db);
  if (pool) return (await pool.query({ name: statement.name, text: statement.text, values: [...values] })).rows as T[];
  return db.$queryRawUnsafe<T[]>(statement.text, ...values);
}
