import { spawn } from 'node:child_process';
import path from 'node:path';
import * as workflows from '../../workflows';
import { bundleWorkflowsInChild } from '../../worker/workflow-bundle';
import { DEFAULT_MAX_CACHED_WORKFLOWS, maxCachedWorkflowsFromEnv } from '../../worker/workflow-cache';

const ROOT = path.resolve(__dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

describe('the workflow cache of the worker is bounded (docs/benchmarks.md, worker memory)', () => {
  it('keeps at most 250 workflows by default, WORKER_MAX_CACHED_WORKFLOWS otherwise, 0 turning it off', () => {
    expect(DEFAULT_MAX_CACHED_WORKFLOWS).toBe(250);
    expect(maxCachedWorkflowsFromEnv({})).toBe(250);
    expect(maxCachedWorkflowsFromEnv({ WORKER_MAX_CACHED_WORKFLOWS: '' })).toBe(250);
    expect(maxCachedWorkflowsFromEnv({ WORKER_MAX_CACHED_WORKFLOWS: '40' })).toBe(40);
    expect(maxCachedWorkflowsFromEnv({ WORKER_MAX_CACHED_WORKFLOWS: '0' })).toBe(0);
    for (const bad of ['-1', '2.5', 'many']) {
      expect(() => maxCachedWorkflowsFromEnv({ WORKER_MAX_CACHED_WORKFLOWS: bad })).toThrow('WORKER_MAX_CACHED_WORKFLOWS must be a whole number');
    }
  });

  it('npm run worker reads it at start: a bad value stops it before it connects anywhere', async () => {
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(TSX, ['worker/main.ts'], {
        cwd: ROOT,
        env: {
          PATH: process.env.PATH!,
          HOME: process.env.HOME!,
          DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none',
          TEMPORAL_ADDRESS: '127.0.0.1:1',
          SECRETS_KEY: 'a'.repeat(64),
          WORKER_MAX_CACHED_WORKFLOWS: 'many',
        },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('exit', (exitCode) => resolve({ code: exitCode, stderr }));
    });
    expect(code).toBe(1);
    expect(stderr).toContain('WORKER_MAX_CACHED_WORKFLOWS must be a whole number');
  }, 60_000);
});

describe('the workflows are bundled outside the worker process', () => {
  it('builds, in a child process, a bundle holding every workflow the worker registers', async () => {
    const { code } = await bundleWorkflowsInChild();
    const names = Object.keys(workflows);
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) expect({ name, bundled: code.includes(`function ${name}(`) }).toEqual({ name, bundled: true });
  }, 180_000);
});
