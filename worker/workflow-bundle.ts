import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { PROJECT_ROOT } from '../services/project-root';

/** What `npm run build` writes beside the compiled code: `dist/workflow-bundle.js`. */
export const PREBUILT_BUNDLE_FILE = 'workflow-bundle.js';

/**
 * The bundle `npm run build` wrote, when this worker is the compiled one: it sits one folder up
 * from the compiled `dist/worker/`. From the sources (`worker/`, through tsx) that place is the
 * checkout's root, where no bundle is written, so a worker run from sources always bundles the
 * workflows it has rather than an older build's.
 */
export function prebuiltWorkflowBundle(workerDir: string = __dirname): { codePath: string } | undefined {
  const codePath = join(workerDir, '..', PREBUILT_BUNDLE_FILE);
  return existsSync(codePath) ? { codePath } : undefined;
}

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
    const child = spawn(process.execPath, ['--import', 'tsx', __filename, path], { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
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
