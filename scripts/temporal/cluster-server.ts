import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { ensureDatabase } from '../postgres/embedded';
import { freeLowPort, freePort } from '../net/free-port';
import { isListening } from '../net/is-listening';
import { setUpTemporal } from '../operator/temporal-setup';
import { ensureGoTool } from '../tools/go-tool';

// The server release the CLI v1.5.1 embeds; its go.mod has no `replace` directive.
const SERVER_VERSION = 'v1.29.1';
// The UI the CLI v1.5.1 embeds (its go.mod requires github.com/temporalio/ui-server/v2 v2.42.1).
const UI_VERSION = 'v2.42.1';
const IP = '127.0.0.1';
const READY_TIMEOUT_MS = 120_000;
const STOP_GRACE_MS = 15_000;

// `go install` names binaries after their package's last element: `server` and `sql` for the
// Temporal server, `server` again for the UI (each lands in a directory of its own).
const serverTool = (binary: string, pkg: string) => ({
  binary,
  packages: [`go.temporal.io/server/${pkg}@${SERVER_VERSION}`],
  label: 'temporal-server',
});
export const ensureTemporalServerBinary = () => ensureGoTool(serverTool('server', 'cmd/server'));
export const ensureTemporalSqlTool = () => ensureGoTool(serverTool('sql', 'cmd/tools/sql'));
export const ensureTemporalUi = () =>
  ensureGoTool({
    binary: 'server',
    packages: [`github.com/temporalio/ui-server/v2/cmd/server@${UI_VERSION}`],
    label: 'temporal-ui',
  });

export interface PostgresTarget {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Superuser URL used to create the two databases. */
  adminUrl: string;
}

export interface ClusterServerOptions {
  postgres: PostgresTarget;
  /** Holds the rendered configuration and the logs. */
  dataDir: string;
  namespace?: string;
  /** Start the Web UI beside the server (default true). */
  ui?: boolean;
  /** Database names, default `temporal` and `temporal_visibility`. */
  databases?: { persistence: string; visibility: string };
}

export interface ClusterServer {
  /** gRPC frontend, `host:port`. */
  address: string;
  namespace: string;
  uiUrl?: string;
  /** Graceful stop of the UI and the server; resolves once both have exited. */
  stop(): Promise<void>;
}

const DEFAULT_DATABASES = { persistence: 'temporal', visibility: 'temporal_visibility' };

/**
 * The full Temporal server (not the dev server) with persistence and visibility on PostgreSQL:
 * creates its two databases (`temporal`, `temporal_visibility`) when missing, applies the server's
 * own schema with its SQL tool, renders a one-cluster configuration on free ports, starts the
 * server and, unless `ui` is false, the Web UI, and resolves once the frontend serves the
 * namespace (registered with the custom search attributes by scripts/operator/temporal-setup.ts).
 */
export async function startClusterServer(opts: ClusterServerOptions): Promise<ClusterServer> {
  const namespace = opts.namespace ?? 'default';
  const [server, sqlTool] = await Promise.all([ensureTemporalServerBinary(), ensureTemporalSqlTool()]);
  await mkdir(opts.dataDir, { recursive: true });
  const databases = opts.databases ?? DEFAULT_DATABASES;
  await applySchema(sqlTool, opts.postgres, databases);
  await forgetDeadMembers(opts.postgres, databases.persistence);

  const ports = { frontend: await freePort(), frontendHttp: await freePort(), history: await freePort(), matching: await freePort(), worker: await freePort() };
  const membership = { frontend: await freeLowPort(), history: await freeLowPort(), matching: await freeLowPort(), worker: await freeLowPort() };
  const configDir = path.join(opts.dataDir, 'config');
  await mkdir(configDir, { recursive: true });
  await writeFile(path.join(configDir, 'cluster.yaml'), renderServerConfig(opts.postgres, databases, ports, membership, path.join(configDir, 'dynamicconfig.yaml')));
  await writeFile(path.join(configDir, 'dynamicconfig.yaml'), DYNAMIC_CONFIG);

  const address = `${IP}:${ports.frontend}`;
  const serverProcess = await spawnLogged(server, ['--root', opts.dataDir, '--config', 'config', '--env', 'cluster', '--allow-no-auth', 'start'], path.join(opts.dataDir, 'server.log'));
  let ui: Logged | undefined;
  let uiUrl: string | undefined;
  const stop = async () => {
    await ui?.stop();
    await serverProcess.stop();
  };
  try {
    await waitForFrontend(address, serverProcess);
    const connection = await Connection.connect({ address });
    try {
      await setUpTemporal(connection, namespace);
    } finally {
      await connection.close();
    }
    if (opts.ui !== false) {
      const uiPort = await freePort();
      const uiDir = path.join(opts.dataDir, 'ui');
      await mkdir(path.join(uiDir, 'config'), { recursive: true });
      await writeFile(
        path.join(uiDir, 'config', 'cluster.yaml'),
        `temporalGrpcAddress: ${address}\nhost: ${IP}\nport: ${uiPort}\nenableUi: true\ndefaultNamespace: ${namespace}\nnotifyOnNewVersion: false\ncors:\n  allowOrigins: []\n`,
      );
      ui = await spawnLogged(await ensureTemporalUi(), ['--root', uiDir, '--config', 'config', '--env', 'cluster', 'start'], path.join(uiDir, 'ui.log'));
      uiUrl = `http://${IP}:${uiPort}`;
      await waitForHttp(uiUrl, ui);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { address, namespace, uiUrl, stop };
}

const exec = promisify(execFile);

/** `go env GOMODCACHE`: where `go install` left the server module, schema files included. */
async function goModCache(): Promise<string> {
  const { stdout } = await exec('go', ['env', 'GOMODCACHE']);
  return stdout.trim();
}

/**
 * The server's schema, by its own tool: `setup-schema -v 0.0` creates the version table on an
 * empty database, `update-schema` applies every versioned step after the recorded version, so a
 * second start (or a newer server) only applies what is missing.
 */
async function applySchema(sqlTool: string, pg: PostgresTarget, databases: { persistence: string; visibility: string }): Promise<void> {
  const schemaRoot = path.join(await goModCache(), `go.temporal.io/server@${SERVER_VERSION}`, 'schema', 'postgresql', 'v12');
  for (const [database, dir] of [
    [databases.persistence, 'temporal'],
    [databases.visibility, 'visibility'],
  ] as const) {
    await ensureDatabase(pg.adminUrl, database);
    const common = ['--plugin', 'postgres12', '--ep', pg.host, '--port', String(pg.port), '--user', pg.user, '--password', pg.password, '--db', database];
    if (!(await hasSchemaVersion(pg, database))) await exec(sqlTool, [...common, 'setup-schema', '-v', '0.0']);
    await exec(sqlTool, [...common, 'update-schema', '-d', path.join(schemaRoot, dir, 'versioned')]);
  }
}

/**
 * A server seeds its membership ring from the hosts that heartbeated in the last 20 s
 * (`cluster_membership`). A server stopped moments ago is still listed there, cannot be joined,
 * and the new one gives up after `maxJoinDuration` and exits ("failed to start ringpop", seen when
 * a server was started again on the same databases). So a listed host whose membership port no
 * longer accepts connections is forgotten before the start; live members of a shared cluster stay.
 */
async function forgetDeadMembers(pg: PostgresTarget, database: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ host: pg.host, port: pg.port, user: pg.user, password: pg.password, database });
  await client.connect();
  try {
    const { rows } = await client.query<{ host_id: Buffer; rpc_address: string; rpc_port: number }>(
      'SELECT host_id, rpc_address, rpc_port FROM cluster_membership',
    );
    for (const row of rows) {
      if (!(await isListening(row.rpc_port, row.rpc_address))) await client.query('DELETE FROM cluster_membership WHERE host_id = $1', [row.host_id]);
    }
  } finally {
    await client.end();
  }
}

async function hasSchemaVersion(pg: PostgresTarget, database: string): Promise<boolean> {
  const { Client } = await import('pg');
  const client = new Client({ host: pg.host, port: pg.port, user: pg.user, password: pg.password, database });
  await client.connect();
  try {
    const { rows } = await client.query<{ present: boolean }>("SELECT to_regclass('public.schema_version') IS NOT NULL AS present");
    return rows[0]!.present;
  } finally {
    await client.end();
  }
}

/**
 * Each history queue's task scheduler runs 512 workers by default, and each task gives up after
 * 3 s (v1.29.1, service/history/transfer_queue_task_executor_base.go `taskTimeout`). When
 * thousands of timers fall due at once (a billing instant), 512 workers queue on the default
 * store's pool of PERSISTENCE_CONNECTIONS and most tasks miss their 3 s waiting for a connection:
 * `Update workflow execution operation failed … context deadline exceeded`, backoff, retry, and
 * the queue makes almost no progress (docs/benchmarks.md, N = 10,000). As many workers as the
 * pool has connections keeps the backlog in the scheduler's memory instead, where waiting costs
 * no deadline.
 */
const PERSISTENCE_CONNECTIONS = 20;
const VISIBILITY_CONNECTIONS = 10;

// Updates and Update-with-Start are what the platform's subscription and rotation workflows use.
const DYNAMIC_CONFIG = `history.timerProcessorSchedulerWorkerCount:
  - value: ${PERSISTENCE_CONNECTIONS}
history.transferProcessorSchedulerWorkerCount:
  - value: ${PERSISTENCE_CONNECTIONS}
history.visibilityProcessorSchedulerWorkerCount:
  - value: ${VISIBILITY_CONNECTIONS}
frontend.enableUpdateWorkflowExecution:
  - value: true
frontend.enableExecuteMultiOperation:
  - value: true
frontend.enableServerVersionCheck:
  - value: false
system.forceSearchAttributesCacheRefreshOnRead:
  - value: true
`;

function renderServerConfig(
  pg: PostgresTarget,
  databases: { persistence: string; visibility: string },
  ports: { frontend: number; frontendHttp: number; history: number; matching: number; worker: number },
  membership: { frontend: number; history: number; matching: number; worker: number },
  dynamicConfigPath: string,
): string {
  const store = (database: string, maxConns: number) => `      sql:
        pluginName: "postgres12"
        databaseName: "${database}"
        connectAddr: "${pg.host}:${pg.port}"
        connectProtocol: "tcp"
        user: "${pg.user}"
        password: "${pg.password}"
        maxConns: ${maxConns}
        maxIdleConns: ${maxConns}
        maxConnLifetime: "1h"`;
  const service = (grpcPort: number, membershipPort: number, extra = '') => `    rpc:
      grpcPort: ${grpcPort}
      membershipPort: ${membershipPort}
      bindOnIP: "${IP}"${extra}`;
  return `log:
  stdout: true
  level: warn

persistence:
  defaultStore: postgres-default
  visibilityStore: postgres-visibility
  numHistoryShards: 4
  datastores:
    postgres-default:
${store(databases.persistence, PERSISTENCE_CONNECTIONS)}
    postgres-visibility:
${store(databases.visibility, VISIBILITY_CONNECTIONS)}

global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "${IP}"

services:
  frontend:
${service(ports.frontend, membership.frontend, `\n      httpPort: ${ports.frontendHttp}`)}
  matching:
${service(ports.matching, membership.matching)}
  history:
${service(ports.history, membership.history)}
  worker:
${service(ports.worker, membership.worker)}

clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "${IP}:${ports.frontend}"
      httpAddress: "${IP}:${ports.frontendHttp}"

dcRedirectionPolicy:
  policy: "noop"

dynamicConfigClient:
  filepath: "${dynamicConfigPath}"
  pollInterval: "10s"
`;
}

interface Logged {
  child: ChildProcess;
  logPath: string;
  exited: Promise<void>;
  stop(): Promise<void>;
}

async function spawnLogged(command: string, args: string[], logPath: string): Promise<Logged> {
  const logFile = await open(logPath, 'a');
  const child = spawn(command, args, { stdio: ['ignore', logFile.fd, logFile.fd] });
  await logFile.close();
  const exited = new Promise<void>((done) => {
    child.once('error', () => done());
    child.once('exit', () => done());
  });
  // If this process exits without calling stop(), the server must not outlive it.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      process.removeListener('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(force);
    })());
  return { child, logPath, exited, stop };
}

const GRPC_NOT_FOUND = 5;

/**
 * The frontend answers getSystemInfo alone, before it sees the history and matching services in
 * its membership ring; until then every workflow call fails with UNAVAILABLE "Not enough hosts to
 * serve the request" (seen right after a restart on the same databases). So the server is ready
 * when a workflow's history can be looked up (an unknown one is NOT_FOUND) and a task queue
 * described, in the namespace that always exists.
 */
async function servesHistoryAndMatching(connection: Connection): Promise<void> {
  const namespace = 'temporal-system';
  try {
    await connection.workflowService.describeWorkflowExecution({ namespace, execution: { workflowId: 'readiness-probe' } });
  } catch (error) {
    if ((error as { code?: number }).code !== GRPC_NOT_FOUND) throw error;
  }
  await connection.workflowService.describeTaskQueue({ namespace, taskQueue: { name: 'readiness-probe' } });
}

async function waitForFrontend(address: string, server: Logged): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastError: unknown;
  while (Date.now() < deadline) {
    await failIfExited(server, 'temporal server');
    try {
      const connection = await Connection.connect({ address, connectTimeout: 2_000 });
      try {
        await connection.workflowService.getSystemInfo({});
        await servesHistoryAndMatching(connection);
        return;
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = error;
    }
    await delay(500);
  }
  throw new Error(`temporal server on ${address} not ready after ${READY_TIMEOUT_MS / 1000} s: ${String(lastError)}\n${await tail(server.logPath)}`);
}

async function waitForHttp(url: string, process: Logged): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    await failIfExited(process, 'temporal ui');
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await delay(250);
  }
  throw new Error(`temporal ui on ${url} not ready after ${READY_TIMEOUT_MS / 1000} s\n${await tail(process.logPath)}`);
}

async function failIfExited(logged: Logged, name: string): Promise<void> {
  if (logged.child.exitCode === null && logged.child.signalCode === null) return;
  throw new Error(`${name} exited while starting (${logged.child.signalCode ?? `exit code ${logged.child.exitCode}`}):\n${await tail(logged.logPath)}`);
}

async function tail(file: string): Promise<string> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.trimEnd().split('\n').slice(-40).join('\n');
}
