import { Pool, type PoolClient } from 'pg';
import { databaseOnPool, type Database } from '../../prisma/client';

/** What one stretch of work sent to PostgreSQL: every statement is one round trip. */
export interface QueryCount {
  statements: number;
  /** Explicit ones (BEGIN … COMMIT) plus each statement sent outside of one. */
  transactions: number;
  texts: string[];
}

/**
 * A Prisma client on a pool of its own whose every statement is counted, so a test can measure
 * the round trips and transactions of one request apart from anything else on the database.
 */
export function countingDatabase(url: string): { db: Database; measure<T>(work: () => Promise<T>): Promise<{ result: T; count: QueryCount }> } {
  let texts: string[] | undefined;
  let transactions = 0;
  const pool = new Pool({ connectionString: url, max: 10 });
  pool.on('connect', (client: PoolClient) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    let open = false;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const first = args[0] as string | { text: string };
      const text = typeof first === 'string' ? first : first.text;
      if (texts) {
        texts.push(text);
        if (!open) transactions++;
      }
      if (/^\s*BEGIN/i.test(text)) open = true;
      else if (/^\s*(COMMIT|ROLLBACK)\s*$/i.test(text)) open = false;
      return query(...args);
    };
  });
  const db = databaseOnPool(pool);
  return {
    db,
    async measure(work) {
      texts = [];
      transactions = 0;
      try {
        const result = await work();
        const seen = texts;
        return { result, count: { statements: seen.length, transactions, texts: seen } };
      } finally {
        texts = undefined;
      }
    },
  };
}
