import type { Pool } from 'pg';
import type { Prisma } from '../generated/prisma/client';
import { ownPoolOf, type Database } from './client';
import { transactionConnection } from './transaction-connections';

/** One SQL statement with `$1`, `$2`… parameters, under a name unique in the process. */
export interface SqlStatement {
  readonly name: string;
  readonly text: string;
  /**
   * Planned for each call's values instead of prepared once: for a statement over arrays of
   * hundreds of values, whose generic plan (which cannot know their length) joins them in nested
   * loops. Planning costs a millisecond or two each time.
   */
  readonly planEachCall?: boolean;
}

const names = new Set<string>();

/**
 * Declares a statement for `readRows` or `writeRows`. pg prepares a named statement once per
 * connection and refuses a second text under the same name, so a name declared twice is a
 * programming error caught when the module loads, not on some connection later.
 *
 * The select list keeps to types both paths of `readRows` return alike: text, int4, boolean,
 * json/jsonb and timestamptz (bytea comes as a Buffer on the pool, a Uint8Array through Prisma).
 * Anything else (int8, numeric, timestamp without time zone, arrays) is cast to text or selected
 * as JSON: pg and Prisma parse those differently.
 */
export function sqlStatement(name: string, text: string, options: { planEachCall?: boolean } = {}): SqlStatement {
  if (names.has(name)) throw new Error(`The statement ${name} is declared twice.`);
  names.add(name);
  return { name, text, ...options };
}

/**
 * The rows of `statement`. Outside a transaction (a client of `createDatabase`) it goes straight
 * over the pool Prisma's client sits on, prepared once per connection: the same read through
 * Prisma's `$queryRaw` costs about 0.2 ms more CPU, its `findFirst` 0.3 ms more (issue 13; a
 * read-only request spends most of its CPU there). Inside a transaction it runs on the
 * transaction's own connection (prisma/transaction-connections.ts), so it sees what the
 * transaction wrote and commits or rolls back with it. It is not prepared there: a statement a
 * migration made stale fails the transaction, which a retry on another connection cannot save.
 */
export async function readRows<T>(db: Database | Prisma.TransactionClient, statement: SqlStatement, values: readonly unknown[]): Promise<T[]> {
  const pool = ownPoolOf(db);
  if (pool) return poolRows<T>(pool, statement, values);
  const connection = transactionConnection(db);
  if (!connection) return db.$queryRawUnsafe<T[]>(statement.text, ...values);
  if (!connection.open) throw new Error(`${statement.name} was sent after its transaction ended.`);
  return (await connection.client.query({ text: statement.text, values: [...values] })).rows as T[];
}

/**
 * The rows a write returns (`… RETURNING`; none without), sent where `readRows` sends a read:
 * committed on its own over the pool, as Prisma's `updateManyAndReturn` outside a transaction would
 * be (a payment's claim and each record of it, one statement by design), or on a transaction's
 * connection, committed with it (an outbox event), where Prisma's client costs more CPU than the
 * statement itself.
 */
export function writeRows<T>(db: Database | Prisma.TransactionClient, statement: SqlStatement, values: readonly unknown[]): Promise<T[]> {
  return readRows<T>(db, statement, values);
}

async function poolRows<T>(pool: Pool, statement: SqlStatement, values: readonly unknown[]): Promise<T[]> {
  for (let attempt = 0; ; attempt++) {
    try {
      const query = statement.planEachCall ? { text: statement.text, values: [...values] } : { name: statement.name, text: statement.text, values: [...values] };
      return (await pool.query(query)).rows as T[];
    } catch (error) {
      // A migration that changed a selected column's type while this process ran leaves the
      // statement's plan stale on every connection that prepared it. pg-pool discards a connection
      // whose query failed, so each retry lands on another one, until one prepares it afresh.
      if (!isStalePreparedStatement(error) || attempt >= (pool.options.max ?? 10)) throw error;
    }
  }
}

/** `cached plan must not change result type`, or the statement gone from the server (a pooler's new backend). */
function isStalePreparedStatement(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (code === '0A000' && typeof message === 'string' && message.includes('cached plan')) || code === '26000';
}
