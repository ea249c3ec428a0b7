import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const KEY = randomBytes(32).toString('hex');

/** Runs an entry point with only the given settings; nothing listens at the database address. */
function run(entry: string, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(TSX, [entry], {
      cwd: ROOT,
      env: { PATH: process.env.PATH!, HOME: process.env.HOME!, DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none', TEMPORAL_ADDRESS: '127.0.0.1:1', PORT: '0', ...env },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

describe('keys the processes need are checked at start, not on the first request that needs them', () => {
  it('the API does not start without URL_SIGNING_KEY', async () => {
    const { code, stderr } = await run('api/main.ts', { SECRETS_KEY: KEY });
    expect(code).toBe(1);
    expect(stderr).toContain('URL_SIGNING_KEY is not set');
  }, 30_000);

  it('the API does not start without SECRETS_KEY', async () => {
    const { code, stderr } = await run('api/main.ts', { URL_SIGNING_KEY: KEY });
    expect(code).toBe(1);
    expect(stderr).toContain('SECRETS_KEY is not set');
  }, 30_000);

  it('the worker does not start without SECRETS_KEY', async () => {
    const { code, stderr } = await run('worker/main.ts', {});
    expect(code).toBe(1);
    expect(stderr).toContain('SECRETS_KEY is not set');
  }, 30_000);
});
