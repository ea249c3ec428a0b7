import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';

/**
 * The workflows' bundle, built by webpack in a short-lived child process. Bundling in the
 * worker's own process leaves it about 100–150 MiB larger for its whole life (webpack's heap
 * and V8's code, which are not handed back to the OS); the child takes them with it when it exits.
 */
export async function bundleWorkflowsInChild(): Promise<{ code: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'workflow-bundle-'));
  const path = join(dir, 'workflows.js');
  try {
    // tsx, as `npm run worker` itself runs: resolved from the project root.
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, path], { cwd: resolve(__dirname, '..'), stdio: ['ignore', 'ignore', 'inherit'] });
    const code = await new Promise<number | null>((resolve, reject) => child.once('error', reject).once('exit', resolve));
    if (code !== 0) throw new Error(`Bundling the workflows failed (exit code ${code}).`);
    return { code: await readFile(path, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  bundleWorkflowCode({ workflowsPath: require.resolve('../workflows'), logger: new DefaultLogger('WARN') })
    .then(({ code }) => writeFile(process.argv[2]!, code))
    .catch((error) => {
      console.error(error);
      process.exit(1);
    });
}
