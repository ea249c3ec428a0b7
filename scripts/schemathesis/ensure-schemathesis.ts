import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Pinned: a new release can add checks or change generation, which must be a deliberate upgrade. */
export const SCHEMATHESIS_VERSION = '4.32.5';

const VENV = resolve(__dirname, '../../.tools/schemathesis');

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
 * The schemathesis CLI (PyPI) in a virtual environment of its own under .tools/, installed by
 * pip the first time (or when the pin changed); needs `python3` with its `venv` module.
 */
export function ensureSchemathesis(): string {
  const executable = join(VENV, 'bin', 'schemathesis');
  if (installedVersion(executable) === SCHEMATHESIS_VERSION) return executable;
  console.log(`[schemathesis] installing schemathesis ${SCHEMATHESIS_VERSION} into ${VENV}`);
  if (!existsSync(join(VENV, 'bin', 'pip'))) run(process.env.PYTHON ?? 'python3', ['-m', 'venv', VENV]);
  run(join(VENV, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`]);
  return executable;
}
