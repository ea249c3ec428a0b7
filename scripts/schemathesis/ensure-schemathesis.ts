import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { toolDir } from '../tools/tool-cache';

/** Pinned: a new release can add checks or change generation, which must be a deliberate upgrade. */
export const SCHEMATHESIS_VERSION = '4.32.5';

const PYTHON = process.env.PYTHON ?? 'python3';

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
}

function installedVersion(executable: string): string | undefined {
  if (!existsSync(executable)) return undefined;
  const result = spawnSync(executable, ['--version'], { encoding: 'utf8' });
  return /version (\S+)/.exec(result.stdout)?.[1];
}

/**
 * The schemathesis CLI (PyPI) in a virtual environment of its own in the tool cache
 * (scripts/tools/tool-cache.ts), named by the pin and the Python it runs on (a virtual
 * environment belongs to one interpreter), installed by pip the first time; needs `python3` with
 * its `venv` module.
 */
export function ensureSchemathesis(): string {
  const python = spawnSync(PYTHON, ['-c', 'import sys; print(sys.executable, sys.version)'], { encoding: 'utf8' });
  if (python.status !== 0) throw new Error(`${PYTHON} did not run (${python.error?.message ?? `exit ${python.status}`}): schemathesis needs Python 3 with venv.`);
  const venv = toolDir('schemathesis', [SCHEMATHESIS_VERSION, python.stdout.trim()]);
  const executable = join(venv, 'bin', 'schemathesis');
  if (installedVersion(executable) === SCHEMATHESIS_VERSION) return executable;
  console.log(`[schemathesis] installing schemathesis ${SCHEMATHESIS_VERSION} into ${venv}`);
  if (!existsSync(join(venv, 'bin', 'pip'))) run(PYTHON, ['-m', 'venv', venv]);
  run(join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`]);
  return executable;
}
