import { Client } from 'pg';

/**
 * What the database did per operation of a bench: statements (pg_stat_statements, BEGIN /
 * COMMIT / ROLLBACK left out), transactions (commits) and rows written (inserted + updated +
 * deleted, pg_stat_database), as deltas between two snapshots divided by the operations done.
 *
 * pg_stat_statements counts a statement when it ends, but a backend hands its pg_stat_database
 * figures over at most once a second and, once idle, within PGSTAT_IDLE_INTERVAL (10 s) or when
 * it exits: a snapshot is exact only once the sessions that did the work have exited or been idle
 * that long (`settle`).
 */
export const STATEMENT_COUNTING_SETTINGS: Record<string, string> = {
  shared_preload_libraries: 'pg_stat_statements',
  'pg_stat_statements.track_utility': 'on',
  'pg_stat_statements.max': '10000',
};

/** Beyond PGSTAT_IDLE_INTERVAL: an idle session has flushed its counters by then. */
const IDLE_FLUSH_MS = 11_000;

export interface DatabaseActivity {
  statements: number;
  transactions: number;
  rowsWritten: number;
  /**
   * Shared buffers hit or read by the statements (not by a session's start, nor by these
   * snapshots): the work of the plans as the data grow, whatever the machine's load.
   */
  blocks: number;
}

export interface PerOperation extends DatabaseActivity {
  operations: number;
}

const SNAPSHOT = `
  SELECT
    (SELECT coalesce(sum(s.calls), 0) FROM pg_stat_statements s
      WHERE s.dbid = d.datid AND s.toplevel
        AND s.query !~* '^\\s*(BEGIN|COMMIT|ROLLBACK|START TRANSACTION|SAVEPOINT|RELEASE)'
        AND s.query NOT LIKE '%pg_stat_%')::bigint AS statements,
    d.xact_commit::bigint AS transactions,
    (d.tup_inserted + d.tup_updated + d.tup_deleted)::bigint AS rows_written,
    (SELECT coalesce(sum(s.shared_blks_hit + s.shared_blks_read), 0) FROM pg_stat_statements s
      WHERE s.dbid = d.datid AND s.query NOT LIKE '%pg_stat_%')::bigint AS blocks
  FROM pg_stat_database d WHERE d.datname = current_database()`;

/**
 * Snapshots of one database's activity. Each look is its own short session, whose own commit
 * is counted by the server when it exits and subtracted here.
 */
export class StatementCounter {
  private ownTransactions = 0;

  private constructor(private readonly databaseUrl: string) {}

  /** The extension must be loaded (STATEMENT_COUNTING_SETTINGS) and is created in the database here. */
  static async create(databaseUrl: string): Promise<StatementCounter> {
    const counter = new StatementCounter(databaseUrl);
    await counter.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    await counter.query('SELECT pg_stat_statements_reset()');
    return counter;
  }

  /** The most frequent statements since `create`, for `BENCH_STATEMENTS=1` (where to look first). */
  async topStatements(limit = 25): Promise<string[]> {
    const rows = await this.query<{ calls: string; mean_ms: number; query: string }>(
      `SELECT s.calls, s.mean_exec_time AS mean_ms, s.query FROM pg_stat_statements s
       JOIN pg_database d ON d.oid = s.dbid AND d.datname = current_database()
       WHERE s.query NOT LIKE '%pg_stat_%' ORDER BY s.calls DESC LIMIT ${limit}`,
    );
    return rows.map((r) => `${r.calls.padStart(8)}  ${r.mean_ms.toFixed(3).padStart(8)} ms  ${r.query.replace(/\s+/g, ' ').slice(0, 160)}`);
  }

  async snapshot(): Promise<DatabaseActivity & { ownTransactions: number }> {
    const ownTransactions = this.ownTransactions;
    const [row] = await this.query<{ statements: string; transactions: string; rows_written: string; blocks: string }>(SNAPSHOT);
    return {
      statements: Number(row!.statements),
      transactions: Number(row!.transactions),
      rowsWritten: Number(row!.rows_written),
      blocks: Number(row!.blocks),
      ownTransactions,
    };
  }

  /** Waits until no other session is connected to the database (e.g. after the API stopped). */
  async waitForOtherSessionsToEnd(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const [row] = await this.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'",
      );
      if (Number(row!.n) === 0) break;
      await sleep(100);
    }
    // A session leaves pg_stat_activity just before it flushes its counters on exit.
    await sleep(300);
  }

  /** Waits until sessions that stay connected but are idle have flushed their counters. */
  async settle(): Promise<void> {
    await sleep(IDLE_FLUSH_MS);
  }

  private async query<T>(text: string): Promise<T[]> {
    const client = new Client({ connectionString: this.databaseUrl });
    await client.connect();
    try {
      return (await client.query(text)).rows as T[];
    } finally {
      this.ownTransactions++;
      await client.end();
    }
  }
}

export function perOperation(
  before: DatabaseActivity & { ownTransactions: number },
  after: DatabaseActivity & { ownTransactions: number },
  operations: number,
): PerOperation {
  const own = after.ownTransactions - before.ownTransactions;
  return {
    operations,
    statements: (after.statements - before.statements) / operations,
    transactions: (after.transactions - before.transactions - own) / operations,
    rowsWritten: (after.rowsWritten - before.rowsWritten) / operations,
    blocks: (after.blocks - before.blocks) / operations,
  };
}

export function formatPerOperation(counts: PerOperation, unit = 'operation'): string {
  return (
    `per ${unit}: statements ${counts.statements.toFixed(2)}   transactions ${counts.transactions.toFixed(2)}   ` +
    `rows written ${counts.rowsWritten.toFixed(2)}   (over ${counts.operations} ${unit}s)`
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((done) => setTimeout(done, ms));
}
