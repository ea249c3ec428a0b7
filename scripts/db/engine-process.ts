import { fork } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export type EngineRequest =
  | { command: 'apply'; databaseUrl: string }
  /** `shadowServerUrl` absent: the worker starts a throwaway server for the shadow database. */
  | { command: 'diff'; shadowServerUrl?: string };

interface EngineResults {
  /** Names of the migrations just applied. */
  apply: string[];
  /** SQL from the migrations to schema.prisma, '' when they agree. */
  diff: string;
}

export type EngineResponse = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * Runs one schema-engine command in a child Node process (scripts/db/engine-worker.ts).
 *
 * The Wasm schema engine is an ES module that imports a .wasm file, which Node 20 loads only with
 * --experimental-wasm-modules. The callers (tsx scripts, Jest global setup and tests, the start
 * script) cannot all be given that flag, and Jest's module sandbox cannot load ES modules at all,
 * whereas a child process gets exactly the flags it needs.
 */
export function runEngine<C extends EngineRequest['command']>(
  request: Extract<EngineRequest, { command: C }>,
): Promise<EngineResults[C]> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'engine-worker.ts'), [], {
      execArgv: [
        '--experimental-wasm-modules',
        '--disable-warning=ExperimentalWarning',
        '--import',
        pathToFileURL(require.resolve('tsx')).href,
      ],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });

    // Kept for the error message only: the worker is silent when it succeeds.
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

    let response: EngineResponse | undefined;
    child.once('message', (message) => (response = message as EngineResponse));
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (response?.ok) resolve(response.value as EngineResults[C]);
      else if (response) reject(new Error(response.error));
      else reject(new Error(`Schema engine process exited with ${signal ?? `code ${code}`}\n${output}`));
    });
    child.send(request);
  });
}
