import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { toolDir } from '../tools/tool-cache';
import { startEmulator, type StripeEmulator } from './emulator-process';

/** Pinned: the flows it emulates (and their gaps) change between releases, which must be a deliberate upgrade. */
export const LOCALSTRIPE_VERSION = '1.15.10';

const PYTHON = process.env.PYTHON ?? 'python3';

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

/** localstripe has no `--version`; the installed distribution's metadata says it. */
function installedVersion(python: string): string | undefined {
  if (!existsSync(python)) return undefined;
  const result = spawnSync(python, ['-c', 'from importlib.metadata import version; print(version("localstripe"))'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

/**
 * The Python of a virtual environment in the tool cache (scripts/tools/tool-cache.ts) holding
 * localstripe (PyPI), named by the pin and the Python it runs on (a virtual environment belongs
 * to one interpreter), installed by pip the first time; needs `python3` with its `venv` module.
 */
export function ensureLocalstripe(): string {
  const python = spawnSync(PYTHON, ['-c', 'import sys; print(sys.executable, sys.version)'], { encoding: 'utf8' });
  if (python.status !== 0) throw new Error(`${PYTHON} did not run (${python.error?.message ?? `exit ${python.status}`}): localstripe needs Python 3 with venv.`);
  const venv = toolDir('localstripe', [LOCALSTRIPE_VERSION, python.stdout.trim()]);
  const venvPython = join(venv, 'bin', 'python');
  if (installedVersion(venvPython) === LOCALSTRIPE_VERSION) return venvPython;
  console.log(`[localstripe] installing localstripe ${LOCALSTRIPE_VERSION} into ${venv}`);
  if (!existsSync(join(venv, 'bin', 'pip'))) run(PYTHON, ['-m', 'venv', venv]);
  run(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `localstripe==${LOCALSTRIPE_VERSION}`]);
  return venvPython;
}

/**
 * localstripe on a free loopback port, its state in memory only (localstripe_in_memory.py): a
 * fresh, empty Stripe account per start; `DELETE <url>/_config/data` empties it again.
 */
export function startLocalstripe(): Promise<StripeEmulator> {
  const python = ensureLocalstripe();
  return startEmulator({ label: 'localstripe', executable: python, args: (port) => [join(__dirname, 'localstripe_in_memory.py'), String(port)] });
}
