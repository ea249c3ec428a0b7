import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, open, readFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Connection } from '@temporalio/client';
import { ensureGoTool, isExecutable } from '../tools/go-tool';
import { isListening } from '../net/is-listening';
import { PLATFORM_SEARCH_ATTRIBUTES, type SearchAttributeKind } from '../../services/temporal/search-attributes';

// The newest CLI release whose go.mod has no `replace` directive, so `go install` still works.
const CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';
const IP = '127.0.0.1';
const READY_TIMEOUT_MS = 90_000;
const STOP_GRACE_MS = 10_000;
const START_ATTEMPTS = 3;
/** `--search-attribute NAME=TYPE` spells the types in CamelCase. */
const CLI_SEARCH_ATTRIBUTE_TYPES: Record<SearchAttributeKind, string> = {
  KEYWORD: 'Keyword',
  TEXT: 'Text',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

let pendingCli: Promise<string> | undefined;

/**
 * Path of a `temporal` CLI: the one on PATH, else the project's cached build, else a fresh
 * `go install` into the tool cache (scripts/tools/tool-cache.ts; the CLI's release downloads are
 * unreachable here).
 */
export function ensureTemporalCli(): Promise<string> {
  pendingCli ??= locateOrInstallCli().catch((err: unknown) => {
    pendingCli = undefined;
    throw err;
  });
  return pendingCli;
}

async function locateOrInstallCli(): Promise<string> {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'temporal');
    if (await isExecutable(candidate)) return candidate;
  }
  return ensureGoTool({ binary: 'temporal', packages: [CLI_MODULE], label: 'temporal' });
}

export interface DevServerOptions {
  /** Holds the SQLite database (so workflows survive restarts) and the server log. */
  dataDir: string;
  port?: number;
  uiPort?: number;
  namespace?: string;
}

export interface DevServer {
  /** gRPC frontend, `host:port`. */
  address: string;
  uiUrl: string;
  /** Graceful stop; resolves once the process has exited. Safe to call more than once. */
  stop(): Promise<void>;
}

/**
 * Starts `temporal server start-dev` with the Web UI, persisted under `dataDir`, and resolves
 * once its frontend answers for `namespace`.
 */
export async function startTemporalDevServer(opts: DevServerOptions): Promise<DevServer> {
  const port = opts.port ?? 7233;
  const uiPort = opts.uiPort ?? 8233;
  const namespace = opts.namespace ?? 'default';

  // Otherwise the readiness probe below could be answered by a server left over from an earlier run.
  for (const p of [port, uiPort]) {
    if (await isListening(p)) {
      throw new Error(`Port ${IP}:${p} is already in use; is another Temporal dev server still running?`);
    }
  }

  const cli = await ensureTemporalCli();
  await mkdir(opts.dataDir, { recursive: true });
  const logPath = path.join(opts.dataDir, 'temporal.log');
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnDevServer({ cli, logPath, dataDir: opts.dataDir, port, uiPort, namespace });
    } catch (err) {
      // The CLI draws its history, matching and worker ports from the kernel's free ports; when
      // another process takes one before the server binds it, the server dies at start-up and a
      // new attempt draws new ports.
      if (!(err instanceof PortCollision) || attempt === START_ATTEMPTS) throw err;
      log(`dev server start attempt ${attempt} lost a port race; retrying`);
    }
  }
}

/** The server exited at start-up because a port it chose was taken meanwhile. */
class PortCollision extends Error {}

interface SpawnOptions {
  cli: string;
  logPath: string;
  dataDir: string;
  port: number;
  uiPort: number;
  namespace: string;
}

async function spawnDevServer({ cli, logPath, dataDir, port, uiPort, namespace }: SpawnOptions): Promise<DevServer> {
  const address = `${IP}:${port}`;
  const logFile = await open(logPath, 'a');
  const logStart = (await logFile.stat()).size;
  await logFile.write(`\n--- ${new Date().toISOString()} starting temporal dev server on ${address}\n`);

  const child = spawn(
    cli,
    [
      'server',
      'start-dev',
      '--db-filename',
      path.join(dataDir, 'temporal.sqlite'),
      // Write-ahead logging: several times the workflow starts per second of the default
      // rollback journal (docs/benchmarks.md), with every commit still synced to disk.
      '--sqlite-pragma',
      'journal_mode=wal',
      '--ip',
      IP,
      '--port',
      String(port),
      '--ui-port',
      String(uiPort),
      '--namespace',
      namespace,
      '--log-level',
      'warn',
      '--color',
      'never',
      // Nothing outside the package registries is reachable, so the version check would only log failures.
      '--dynamic-config-value',
      'frontend.enableServerVersionCheck=false',
      // The workflows' starts name them: an unknown one would fail every start (docs/operators.md).
      ...Object.entries(PLATFORM_SEARCH_ATTRIBUTES).flatMap(([name, kind]) => ['--search-attribute', `${name}=${CLI_SEARCH_ATTRIBUTE_TYPES[kind]}`]),
    ],
    { stdio: ['ignore', logFile.fd, logFile.fd] },
  );
  // Listened for before anything is awaited: a server that dies at once (a bad flag, a locked
  // database) would otherwise exit while the descriptor closes, unseen, and be waited for 90 s.
  const exited = waitForExit(child);
  // The child holds its own copy of the descriptor.
  await logFile.close();
  // If this process exits without calling stop() (e.g. an uncaught error), the server must not outlive it.
  const killOnExit = (): void => {
    child.kill('SIGTERM');
  };
  process.once('exit', killOnExit);

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      process.removeListener('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      // SIGTERM lets the server close SQLite cleanly; SIGKILL only if it hangs.
      child.kill('SIGTERM');
      const forceKill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(forceKill);
    })();
    return stopping;
  };

  try {
    await waitUntilReady(address, namespace, exited, logPath, logStart);
  } catch (err) {
    await stop();
    throw err;
  }
  return { address, uiUrl: `http://${IP}:${uiPort}`, stop };
}

async function waitUntilReady(
  address: string,
  namespace: string,
  exited: Promise<ExitResult>,
  logPath: string,
  logStart: number,
): Promise<void> {
  let exit: ExitResult | undefined;
  void exited.then((e) => {
    exit = e;
  });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (exit) {
      const output = (await readFile(logPath)).subarray(logStart).toString('utf8');
      const message =
        `temporal dev server exited before becoming ready (${describeExit(exit)}).\n` +
        // A start-up panic's cause is logged before a stack trace longer than any tail.
        `Errors logged:\n${errorLines(output)}\nLast lines of ${logPath}:\n${lastLines(output)}`;
      throw output.includes('address already in use') ? new PortCollision(message) : new Error(message);
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: 2_000 });
      try {
        // Namespaces are registered during start-up, so the frontend can answer before ours exists.
        await connection.workflowService.describeNamespace({ namespace });
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      lastError = err;
    }
    await delay(250);
  }
  throw new Error(
    `temporal dev server on ${address} not ready after ${READY_TIMEOUT_MS / 1000} s: ${String(lastError)}\n` +
      `Last lines of ${logPath}:\n${await tail(logPath)}`,
  );
}

interface ExitResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process could not be started at all. */
  error?: Error;
}

function waitForExit(child: ChildProcess): Promise<ExitResult> {
  return new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

function describeExit(exit: ExitResult): string {
  return exit.error?.message ?? exit.signal ?? `exit code ${exit.code}`;
}


async function tail(file: string): Promise<string> {
  return lastLines(await readFile(file, 'utf8').catch(() => ''));
}

function lastLines(text: string, lines = 30): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}

function errorLines(text: string): string {
  const errors = text.split('\n').filter((line) => /level=ERROR|^panic:|^fatal error:/.test(line));
  return errors.length > 0 ? errors.join('\n') : '(none)';
}

function log(message: string): void {
  process.stderr.write(`[temporal] ${message}\n`);
}
