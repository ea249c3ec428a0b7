import { execFileSync, spawnSync } from 'node:child_process';

/** The OS account PostgreSQL runs as when root starts it. */
export interface ServerAccount {
  name: string;
  uid: number;
  gid: number;
}

const NAME = 'postgres';

const idOf = (flag: '-u' | '-g') => Number(execFileSync('id', [flag, NAME], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());

/**
 * PostgreSQL refuses to run as root, so started by root it runs as the `postgres` account,
 * created here when missing. Anyone else runs it as themselves: undefined.
 */
export function serverAccount(): ServerAccount | undefined {
  if (process.getuid?.() !== 0) return undefined;
  try {
    return { name: NAME, uid: idOf('-u'), gid: idOf('-g') };
  } catch {
    if (spawnSync('getent', ['group', NAME]).status !== 0) execFileSync('groupadd', [NAME]);
    execFileSync('useradd', ['-g', NAME, NAME]);
    return { name: NAME, uid: idOf('-u'), gid: idOf('-g') };
  }
}

/**
 * Whether the account can enter `dir`, which takes search permission on every directory
 * above it too. Asked by running `test -x` as that account, so the kernel answers, groups,
 * ACLs and all, exactly as it will for the server.
 */
export function canEnter(account: ServerAccount | undefined, dir: string): boolean {
  if (!account) return true;
  return spawnSync('test', ['-x', dir], { uid: account.uid, gid: account.gid }).status === 0;
}
