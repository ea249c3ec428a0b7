import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { toolDir } from './tool-cache';

export interface GoTool {
  /** The binary `go install` writes (the last element of the package path). */
  binary: string;
  /** `module/path/cmd@version`, pinned to a release whose go.mod has no `replace` directive. */
  packages: string[];
  /** Prefix of progress lines. */
  label: string;
}

/**
 * Where `go install` writes the tool: a directory of the tool cache per set of pinned packages, so
 * binaries with generic names (the Temporal server's `cmd/server` and the UI's both install as
 * `server`) never clash, and a new pin is a new build.
 */
function binDirOf(tool: GoTool): string {
  return toolDir('go', tool.packages);
}

const pending = new Map<string, Promise<string>>();

/**
 * Path of a Go tool the project builds from source (release downloads are unreachable here):
 * the binary in the tool cache (scripts/tools/tool-cache.ts) when built before, else a
 * `go install` of the pinned packages there, from the Go module proxy and the warm module and
 * build caches.
 */
export function ensureGoTool(tool: GoTool): Promise<string> {
  const key = path.join(binDirOf(tool), tool.binary);
  let build = pending.get(key);
  if (!build) {
    build = locateOrInstall(tool).catch((error: unknown) => {
      pending.delete(key);
      throw error;
    });
    pending.set(key, build);
  }
  return build;
}

export async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function locateOrInstall(tool: GoTool): Promise<string> {
  const binDir = binDirOf(tool);
  const target = path.join(binDir, tool.binary);
  if (await isExecutable(target)) return target;
  const log = (message: string) => process.stderr.write(`[${tool.label}] ${message}\n`);
  log(`building ${tool.packages.join(' ')} into ${binDir} (the first build takes minutes)`);
  await mkdir(binDir, { recursive: true });
  const started = Date.now();
  const child = spawn('go', ['install', ...tool.packages], { env: { ...process.env, GOBIN: binDir }, stdio: ['ignore', 'inherit', 'inherit'] });
  // go prints nothing while compiling, which looks like a hang without a heartbeat.
  const heartbeat = setInterval(() => log(`still building (${Math.round((Date.now() - started) / 1000)} s)`), 30_000);
  try {
    const exit = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, error }));
      child.once('exit', (code) => resolve({ code }));
    });
    if (exit.code !== 0) throw new Error(`go install ${tool.packages.join(' ')} failed (${exit.error?.message ?? `exit code ${exit.code}`})`);
  } finally {
    clearInterval(heartbeat);
  }
  log(`built in ${Math.round((Date.now() - started) / 1000)} s`);
  return target;
}
