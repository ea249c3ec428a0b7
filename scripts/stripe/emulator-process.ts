import { spawn } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '../net/free-port';

const HOST = '127.0.0.1';
const READY_TIMEOUT_MS = 30_000;
const STOP_GRACE_MS = 5_000;

/** A Stripe API emulator listening on loopback: what the `stripe` SDK's `host`, `port` and `protocol` options take, and its base URL. */
export interface StripeEmulator {
  url: string;
  host: string;
  port: number;
  protocol: 'http';
  /** Ends the emulator's process group and resolves once it has exited; safe to call twice. */
  stop(): Promise<void>;
}

export interface EmulatorCommand {
  /** Prefix of error messages. */
  label: string;
  executable: string;
  args: (port: number) => string[];
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone already.
  }
}

/**
 * Starts an emulator on a free port of its own and resolves once it answers HTTP. It leads a
 * process group of its own, which stop() ends as a whole, so nothing it started outlives the test;
 * so does this process's exit when stop() was never called.
 */
export async function startEmulator(command: EmulatorCommand): Promise<StripeEmulator> {
  const port = await freePort();
  const child = spawn(command.executable, command.args(port), { detached: true, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
  const exited = new Promise<void>((resolve) => {
    child.once('error', (error) => {
      stderr += error.message;
      resolve();
    });
    child.once('exit', () => resolve());
  });
  const pid = child.pid;
  const killOnExit = (): void => {
    if (pid !== undefined) signalGroup(pid, 'SIGKILL');
  };
  process.once('exit', killOnExit);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      process.removeListener('exit', killOnExit);
      if (pid === undefined) return;
      signalGroup(pid, 'SIGTERM');
      const forceKill = setTimeout(() => signalGroup(pid, 'SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(forceKill);
      // Whatever the leader left behind in its group.
      signalGroup(pid, 'SIGKILL');
    })();
    return stopping;
  };

  const url = `http://${HOST}:${port}`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null || pid === undefined) {
      // A spawn that failed (no such file) reports why on 'error', after this function resumed.
      if (pid === undefined) await exited;
      await stop();
      throw new Error(`${command.label} exited at start (${child.exitCode ?? child.signalCode ?? 'not started'}): ${stderr}`);
    }
    // Any answer will do, a 401 or 404 included: the server is up.
    if (await fetch(url, { signal: AbortSignal.timeout(1_000) }).then(() => true, () => false)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${command.label} did not answer on ${url} within ${READY_TIMEOUT_MS} ms: ${stderr}`);
    }
    await delay(100);
  }
  return { url, host: HOST, port, protocol: 'http', stop };
}
