import { readdirSync, readFileSync } from 'node:fs';

/** The state letter and parent pid of a process from /proc (Linux), or undefined once it is gone. */
function procStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state!, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** The processes whose parent is `pid`: a PostgreSQL server's backends and auxiliary processes. */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const child = Number(entry);
    if (Number.isInteger(child) && procStat(child)?.ppid === pid) children.push(child);
  }
  return children;
}

/** Whether `pid` has exited: gone, or a zombie nobody has reaped (it holds no memory or files). */
export function hasExited(pid: number): boolean {
  const stat = procStat(pid);
  return stat === undefined || stat.state === 'Z' || stat.state === 'X';
}
