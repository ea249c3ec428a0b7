/**
 * Child process behind engine-process.ts: receives one EngineRequest over IPC, runs it on the
 * Wasm schema engine, replies with an EngineResponse and exits.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';
import type { SchemaEngine, SchemaFilter } from '@prisma/schema-engine-wasm' with { 'resolution-mode': 'import' };
import { engineAdapterFactory } from './engine-adapter';
import type { EngineRequest, EngineResponse } from './engine-process';
import { loadMigrationList } from './migrations-dir';
import { projectRoot, schemaPath } from './paths';
import { startThrowawayPostgres } from './throwaway-postgres';

const NO_FILTERS: SchemaFilter = { externalTables: [], externalEnums: [] };

// A Rust panic surfaces in JS as a bare "unreachable"; the engine reports its reason here first.
let panicMessage: string | undefined;
Object.assign(globalThis, {
  PRISMA_WASM_PANIC_REGISTRY: { set_message: (message: string) => (panicMessage = message) },
});

// The panic is thrown outside any promise chain; as a rejection it lets the cleanup below run.
const panicked = new Promise<never>((_, reject) => process.once('uncaughtException', reject));

async function withEngine<T>(
  databaseUrl: string,
  shadowServerUrl: string | undefined,
  work: (engine: SchemaEngine, schema: { path: string; content: string }) => Promise<T>,
): Promise<T> {
  const { SchemaEngine } = await import('@prisma/schema-engine-wasm');
  const schema = { path: path.relative(projectRoot, schemaPath), content: await readFile(schemaPath, 'utf8') };
  const factory = engineAdapterFactory(databaseUrl, shadowServerUrl);
  try {
    const engine = await SchemaEngine.new(
      { datamodels: [[schema.path, schema.content]] },
      () => {},
      bindMigrationAwareSqlAdapterFactory(factory),
    );
    try {
      return await Promise.race([work(engine, schema), panicked]);
    } finally {
      engine.free();
    }
  } finally {
    await factory.dropShadowDatabases();
  }
}

async function apply(databaseUrl: string): Promise<string[]> {
  const migrationsList = await loadMigrationList();
  return withEngine(databaseUrl, undefined, async (engine) => {
    const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
    return appliedMigrationNames;
  });
}

async function diffOn(serverUrl: string): Promise<string> {
  const migrationsList = await loadMigrationList();
  return withEngine(serverUrl, serverUrl, async (engine, schema) => {
    const { exitCode, stdout } = await engine.diff({
      from: { tag: 'migrations', ...migrationsList },
      to: { tag: 'schemaDatamodel', files: [schema] },
      script: true,
      // Makes the engine tell an empty diff (0) from a non-empty one (2); an empty script is a comment.
      exitCode: true,
      filters: NO_FILTERS,
    });
    return exitCode === 0 ? '' : (stdout ?? '');
  });
}

async function diff(shadowServerUrl: string | undefined): Promise<string> {
  if (shadowServerUrl) return diffOn(shadowServerUrl);
  const server = await startThrowawayPostgres();
  try {
    return await diffOn(server.url);
  } finally {
    await server.stop();
  }
}

function run(request: EngineRequest): Promise<unknown> {
  switch (request.command) {
    case 'apply':
      return apply(request.databaseUrl);
    case 'diff':
      return diff(request.shadowServerUrl);
  }
}

function describe(error: unknown): string {
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return panicMessage ? `Schema engine panicked: ${panicMessage}\n${message}` : message;
}

function reply(response: EngineResponse): void {
  // Exiting right away: the engine's connection pools would otherwise keep the process alive.
  process.send?.(response, () => process.exit(0));
}

process.once('message', (request: EngineRequest) => {
  run(request).then(
    (value) => reply({ ok: true, value }),
    (error: unknown) => reply({ ok: false, error: describe(error) }),
  );
});
