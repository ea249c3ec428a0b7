import { randomUUID } from 'node:crypto';
import { PrismaPg } from '@prisma/adapter-pg';
import {
  ColumnTypeEnum,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
} from '@prisma/driver-adapter-utils';
import pg from 'pg';

const CHAR_OID = 18;
const TEXT_OID = 25;

type PerformIO = (query: SqlQuery) => Promise<pg.QueryResult<unknown[]>>;

/**
 * The schema engine reads catalog columns of PostgreSQL's one-byte `"char"` type (for example
 * `pg_constraint.contype`) as characters, but @prisma/adapter-pg 7.10 rejects that type outright,
 * so describing a database fails. This lets the adapter decode those columns as text and then
 * reports them to the engine as characters. It reaches into the adapter's private `performIO`,
 * hence the exact version pin in package.json.
 */
function decodeCatalogChars(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const target = adapter as SqlDriverAdapter & { performIO?: PerformIO };
  const performIO = target.performIO?.bind(adapter);
  if (!performIO) {
    throw new Error('@prisma/adapter-pg no longer has performIO: revisit scripts/db/engine-adapter.ts');
  }
  const charColumns = new WeakMap<SqlQuery, number[]>();

  target.performIO = async (query) => {
    const result = await performIO(query);
    charColumns.set(
      query,
      result.fields.flatMap((field, index) => (field.dataTypeID === CHAR_OID ? [index] : [])),
    );
    result.fields = result.fields.map((field) =>
      field.dataTypeID === CHAR_OID ? { ...field, dataTypeID: TEXT_OID } : field,
    );
    return result;
  };

  const queryRaw = adapter.queryRaw.bind(adapter);
  target.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const index of charColumns.get(query) ?? []) {
      result.columnTypes[index] = ColumnTypeEnum.Character;
    }
    return result;
  };
  return adapter;
}

type ScriptRunner = { client: pg.Pool | pg.PoolClient; onError(error: unknown): never };

/**
 * @prisma/adapter-pg 7.10 runs a migration by splitting its script on every ";", so a function
 * body (`$$ … ; … $$`) breaks apart. PostgreSQL takes the whole script as one simple query, as
 * Prisma's native engine sends it: every statement runs, in one implicit transaction, so a
 * migration that fails leaves nothing half-applied. Reaches into the adapter's private `client`
 * and `onError` (the version pin above).
 */
function wholeScripts(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const target = adapter as SqlDriverAdapter & Partial<ScriptRunner>;
  if (!target.client || typeof target.onError !== 'function') {
    throw new Error('@prisma/adapter-pg no longer has client and onError: revisit scripts/db/engine-adapter.ts');
  }
  const runner = target as SqlDriverAdapter & ScriptRunner;
  runner.executeScript = async (script) => {
    try {
      await runner.client.query(script);
    } catch (error) {
      runner.onError(error);
    }
  };
  return adapter;
}

async function execute(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export interface EngineAdapterFactory extends SqlMigrationAwareDriverAdapterFactory {
  /** Drops every shadow database this factory created, whether or not the engine released it. */
  dropShadowDatabases(): Promise<void>;
}

/**
 * Connects the schema engine to `databaseUrl`. Shadow databases, which the engine needs to replay
 * migrations, are created on the server of `shadowServerUrl`, whose user must be allowed to
 * CREATE DATABASE. PrismaPg's own connectToShadowDb cannot be used: given a connection string it
 * connects the "shadow" pool to the main database, as pg lets the string override `database`.
 */
export function engineAdapterFactory(databaseUrl: string, shadowServerUrl?: string): EngineAdapterFactory {
  const shadowDatabases: string[] = [];
  const main = new PrismaPg({ connectionString: databaseUrl });

  return {
    provider: main.provider,
    adapterName: main.adapterName,
    connect: async () => wholeScripts(decodeCatalogChars(await main.connect())),

    async connectToShadowDb() {
      if (!shadowServerUrl) throw new Error('No server was given for a shadow database');
      const name = `prisma_shadow_${randomUUID().replaceAll('-', '')}`;
      await execute(shadowServerUrl, `CREATE DATABASE "${name}"`);
      shadowDatabases.push(name);
      const shadow = new PrismaPg({ connectionString: withDatabase(shadowServerUrl, name) });
      return wholeScripts(decodeCatalogChars(await shadow.connect()));
    },

    async dropShadowDatabases() {
      if (!shadowServerUrl) return;
      for (const name of shadowDatabases.splice(0)) {
        // FORCE: a failed command may leave the engine's pool connected.
        await execute(shadowServerUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      }
    },
  };
}
