import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { ensureGoTool } from '../tools/go-tool';
import { freePort } from '../net/free-port';
import { isListening } from '../net/is-listening';

// An S3 gateway over a local directory, built from source (its go.mod has no `replace` directive).
const VERSITYGW = { binary: 'versitygw', packages: ['github.com/versity/versitygw/cmd/versitygw@v1.8.0'], label: 'versitygw' };
const READY_TIMEOUT_MS = 30_000;

export interface S3Server {
  /** `http://127.0.0.1:<port>`, for S3_ENDPOINT (path-style addressing). */
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

export function ensureVersitygw(): Promise<string> {
  return ensureGoTool(VERSITYGW);
}

/** A real S3-compatible server for tests and the cluster run: versitygw's posix backend on `dataDir`. */
export async function startS3Server(dataDir: string): Promise<S3Server> {
  const binary = await ensureVersitygw();
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  const accessKeyId = 'billing-test';
  const secretAccessKey = 'billing-test-secret';
  const child = spawn(binary, ['--access', accessKeyId, '--secret', secretAccessKey, '--port', `127.0.0.1:${port}`, 'posix', dataDir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4_000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!(await isListening(port))) {
    if (child.exitCode !== null) throw new Error(`versitygw exited at start (${child.exitCode}): ${stderr}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`versitygw did not listen on ${port} within ${READY_TIMEOUT_MS} ms: ${stderr}`);
    }
    await delay(100);
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId,
    secretAccessKey,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

