import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { writeFile } from 'node:fs/promises';
import { applyPendingMigrations } from '../../scripts/db/migrations';
import { ensureDatabase, startEmbeddedPostgres } from '../../scripts/postgres/embedded';
import { freePort } from '../../scripts/net/free-port';
import { ensureTestServerExecutable } from '../../scripts/temporal/test-server';

export const TEMPLATE_DATABASE = 'billing_template';

/**
 * Once per test run: a throwaway PostgreSQL with a migrated template database (each test file
 * copies it into a database of its own), the workflow bundle, and the Temporal test server's
 * classpath, so no test file pays for them.
 */
export default async function globalSetup(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'billing-test-'));
  const postgres = await startEmbeddedPostgres({ dataDir: join(dir, 'pg'), port: await freePort(), persistent: false });
  (globalThis as { __postgres?: typeof postgres }).__postgres = postgres;

  await ensureDatabase(postgres.adminUrl, TEMPLATE_DATABASE);
  await applyPendingMigrations(postgres.urlFor(TEMPLATE_DATABASE));

  const bundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: quietLogger });
  const bundlePath = join(dir, 'workflow-bundle.js');
  await writeFile(bundlePath, bundle.code);

  await ensureTestServerExecutable();

  process.env.TEST_ADMIN_DATABASE_URL = postgres.adminUrl;
  process.env.TEST_TEMPLATE_DATABASE = TEMPLATE_DATABASE;
  process.env.TEST_WORKFLOW_BUNDLE = bundlePath;
}

const quietLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};
