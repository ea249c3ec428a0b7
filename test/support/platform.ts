import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, type RuntimeOptions, type Worker } from '@temporalio/worker';
import type { FastifyInstance } from 'fastify';
import type { SecretCache } from '../../api/auth/secret-cache';
import type { ApiMetrics } from '../../api/http/metrics';
import { startMetricsServer } from '../../api/http/metrics-server';
import { buildServer } from '../../api/http/server';
import { RateLimiter, type Quota } from '../../api/rate-limit/token-bucket';
import type { Database } from '../../prisma/client';
import { createWorker } from '../../worker/create-worker';
import { createAccount, createChannel, createOperatorApiKey } from '../../scripts/operator/accounts';
import { createTestDatabase, type TestDatabase } from './database';
import { createTestWorkflowEnvironment } from './temporal';

export interface CallOptions {
  secret?: string | null;
  headers?: Record<string, string>;
  rawBody?: string;
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface Platform {
  db: Database;
  env: TestWorkflowEnvironment;
  server: FastifyInstance;
  /** The worker running now; restartWorker replaces it (usePlatform's handle keeps the first). */
  readonly worker: Worker;
  baseUrl: string;
  accountId: string;
  channelIds: [string, string, string];
  /** An account-level key with every permission. */
  rootSecret: string;
  call<T = any>(path: string, body?: unknown, options?: CallOptions): Promise<ApiResponse<T>>;
  /** `whileStopped` runs after the old worker (and its outbox dispatcher) stopped, before the new one starts. */
  restartWorker(whileStopped?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
  /** The operator listener serving the API's `/metrics`, when the `metrics` option was given. */
  metricsUrl?: string;
}

export interface PlatformOptions {
  quota?: Quota;
  /** Cache secret records as production does; off by default so each request reads the database. */
  secretCache?: SecretCache;
  bodyLimitBytes?: number;
  /** A running Temporal server (e.g. the CLI dev server, which has visibility queries) instead of the time-skipping one. */
  temporalAddress?: string;
  /** The Temporal Runtime of the test file, installed by its first platform (a file's later platforms share it). */
  runtime?: RuntimeOptions;
  /** The API's metrics; by default its own counters without the process's (as buildServer makes them). */
  metrics?: ApiMetrics;
}

/**
 * The real platform for one test file: its own database, the Temporal time-skipping server,
 * the worker and the HTTP API on a free port, plus an account with three channels.
 */
let runtimeInstalled = false;

export async function startPlatform(options: PlatformOptions = {}): Promise<Platform> {
  if (!runtimeInstalled) {
    Runtime.install(options.runtime ?? { logger: new DefaultLogger('WARN') });
    runtimeInstalled = true;
  }
  // One key for every platform of the process, so a link signed by one verifies on another.
  process.env.URL_SIGNING_KEY ??= randomBytes(32).toString('hex');
  process.env.SECRETS_KEY ??= randomBytes(32).toString('hex');
  process.env.STORAGE_DIR ??= join(tmpdir(), `billing-test-files-${process.pid}`);
  // The webhook tests deliver to receivers on 127.0.0.1 (docs/webhooks.md, "Where deliveries may go").
  process.env.WEBHOOK_ALLOW_LOOPBACK ??= 'true';
  const database: TestDatabase = await createTestDatabase();
  const env = options.temporalAddress
    ? await TestWorkflowEnvironment.createFromExistingServer({ address: options.temporalAddress })
    : await createTestWorkflowEnvironment();
  const { db } = database;
  const workflowBundle = { codePath: process.env.TEST_WORKFLOW_BUNDLE! };
  // No workflow cache: each task replays the whole history, so every test also proves replay
  // determinism, and a restarted worker never waits on the sticky queue of the one it replaced
  // (the time-skipping server does not move time while such a task is outstanding).

  // The webhook sender stamps first attempts with the test server's clock, which its retry workflows' timers run on.
  const clock = async () => new Date(await env.currentTimeMs());
  let worker: Worker = await createWorker({ connection: env.nativeConnection, db, workflowBundle, maxCachedWorkflows: 0, clock });
  let running = worker.run();
  const draining: Promise<void>[] = [];

  const quota = options.quota ?? { ratePerSecond: 10_000, burst: 10_000 };
  const server = buildServer(
    { db, temporal: env.client, rateLimiter: new RateLimiter(() => quota), secretCache: options.secretCache },
    { bodyLimitBytes: options.bodyLimitBytes, metrics: options.metrics },
  );
  await server.listen({ port: 0, host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  const metricsServer = options.metrics ? await startMetricsServer(0, '127.0.0.1', options.metrics.registry) : undefined;
  const metricsUrl = metricsServer ? `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}` : undefined;
  // Links (pdf_url) name the most recently started platform that is still running; stop()
  // hands PUBLIC_URL back to the one started before, as platforms nest in a test file.
  const previousPublicUrl = process.env.PUBLIC_URL;
  process.env.PUBLIC_URL = baseUrl;

  const account = await createAccount(db, 'Test account');
  // One after the other: the first channel created becomes the account's default, and tests rely on it being channelIds[0].
  const channels = [];
  for (const name of ['one', 'two', 'three']) channels.push(await createChannel(db, account.id, name));
  const root = await createOperatorApiKey(db, { accountId: account.id, name: 'root' });

  const call = async <T>(path: string, body: unknown = {}, opts: CallOptions = {}): Promise<ApiResponse<T>> => {
    const secret = opts.secret === undefined ? root.secret : opts.secret;
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(secret ? { authorization: `Bearer ${secret}` } : {}),
        ...opts.headers,
      },
      body: opts.rawBody ?? JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
  };

  return {
    db,
    env,
    server,
    get worker() {
      return worker;
    },
    baseUrl,
    metricsUrl,
    accountId: account.id,
    channelIds: channels.map((c) => c.id) as [string, string, string],
    rootSecret: root.secret,
    call,
    async restartWorker(whileStopped?: () => Promise<void>) {
      // The old worker stops taking tasks at once; its pending long polls against the test
      // server can take a minute to return, so its drain finishes in the background.
      worker.shutdown();
      draining.push(running);
      await whileStopped?.();
      worker = await createWorker({ connection: env.nativeConnection, db, workflowBundle, maxCachedWorkflows: 0, clock });
      running = worker.run();
    },
    async stop() {
      if (process.env.PUBLIC_URL === baseUrl) {
        if (previousPublicUrl === undefined) delete process.env.PUBLIC_URL;
        else process.env.PUBLIC_URL = previousPublicUrl;
      }
      metricsServer?.close();
      await server.close();
      worker.shutdown();
      await Promise.all([running, ...draining]);
      await env.teardown();
      await database.drop();
    },
  };
}

/**
 * The platform of a test file (or of a `describe`): started in a `beforeAll`, stopped in an
 * `afterAll`, both registered here. The handle is returned at once so a suite can close over
 * it; its fields are filled when the `beforeAll` has run, so a suite's own `beforeAll`
 * declared after this call already finds them.
 */
export function usePlatform(options: PlatformOptions = {}): Platform {
  const handle = {} as Platform;
  let started: Platform | undefined;
  beforeAll(async () => {
    started = await startPlatform(options);
    Object.assign(handle, started);
  });
  afterAll(() => started?.stop());
  return handle;
}
