import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { ensureTestServerExecutable } from '../../scripts/temporal/test-server';
import { createTestWorkflowEnvironment } from '../support/temporal';
import { sleeper } from './fixtures/sleeper.workflow';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('time-skipping test server', () => {
  let env: TestWorkflowEnvironment;

  beforeAll(async () => {
    const started = performance.now();
    env = await createTestWorkflowEnvironment();
    // Reported so that JVM start-up cost per environment stays visible in test output.
    console.info(`temporal test server ready in ${Math.round(performance.now() - started)} ms`);
  }, 120_000);

  afterAll(async () => {
    await env?.teardown();
  });

  it('runs a 30-day sleep in seconds of wall time', async () => {
    const taskQueue = `sleeper-${randomUUID()}`;
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowsPath: require.resolve('./fixtures/sleeper.workflow'),
    });

    const envTimeBefore = await env.currentTimeMs();
    const wallBefore = Date.now();
    const result = await worker.runUntil(
      env.client.workflow.execute(sleeper, { taskQueue, workflowId: `sleeper-${randomUUID()}` }),
    );
    const wallElapsed = Date.now() - wallBefore;
    const envElapsed = (await env.currentTimeMs()) - envTimeBefore;

    expect(result.wokeAtMs - result.startedAtMs).toBeGreaterThanOrEqual(30 * DAY_MS);
    expect(envElapsed).toBeGreaterThanOrEqual(30 * DAY_MS);
    expect(envElapsed).toBeLessThan(31 * DAY_MS);
    expect(wallElapsed).toBeLessThan(30_000);
  }, 120_000);

  it('starts from a class-data archive of its own start, which exists', async () => {
    // Each test file starts a server: without the archive every start loads and verifies the
    // server's classes again (about 1.4 s more CPU per file on this machine).
    const wrapper = readFileSync(await ensureTestServerExecutable(), 'utf8');
    const archive = /-XX:SharedArchiveFile='([^']+)'/.exec(wrapper)?.[1];
    expect(archive).toMatch(/\.jsa$/);
    expect(existsSync(archive!)).toBe(true);
  });
});
