import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { projectRoot } from './paths';

// Without this variable the Prisma CLI tries to download the native schema engine, even for
// `generate`, which never runs it. A real engine configured by the caller still wins.
const engine = process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? path.join(__dirname, 'schema-engine-stub.sh');

const result = spawnSync(process.execPath, [require.resolve('prisma/build/index.js'), 'generate', '--config', 'prisma/prisma.config.ts'], {
  cwd: projectRoot,
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: engine },
  stdio: 'inherit',
});
process.exitCode = result.status ?? 1;
