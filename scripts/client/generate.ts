import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { clientSchemaSource } from './client-schema';

const CLIENT_SCHEMA_PATH = 'client/schema.d.ts';

/**
 * `npm run client:generate`: rewrites client/schema.d.ts from the current zod schemas.
 * With `--stdout` it prints the source instead, for the drift test: openapi-typescript loads
 * ES modules that jest's CommonJS runtime cannot, so the test runs this in a child process.
 */
async function main(): Promise<void> {
  const source = await clientSchemaSource();
  if (process.argv.includes('--stdout')) {
    process.stdout.write(source);
    return;
  }
  writeFileSync(join(__dirname, '../..', CLIENT_SCHEMA_PATH), source);
  console.log(`[client] wrote ${CLIENT_SCHEMA_PATH}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
