import { readdirSync, readFileSync } from 'node:fs';

const TICKS_PER_SECOND = 100;

function statFields(pid: string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * CPU-seconds one PostgreSQL server has used since it started (Linux): the postmaster's own, its
 * children's that have exited (cutime, cstime: reaped children add theirs to the parent), and
 * those of the children still running. Read before and after a window, it is what the database did
 * in it, whatever else runs on the machine.
 */
export function postgresCpuSeconds(dataDir: string): number {
  let postmaster: string | undefined;
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  for (const pid of pids) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (command[0]?.endsWith('/postgres') && command.includes(dataDir)) postmaster = pid;
    } catch {
      // gone meanwhile
    }
  }
  if (!postmaster) throw new Error(`no PostgreSQL server runs on ${dataDir}`);
  let ticks = 0;
  for (const pid of pids) {
    const fields = statFields(pid);
    if (!fields) continue;
    if (pid === postmaster) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    else if (fields[1] === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / TICKS_PER_SECOND;
}
