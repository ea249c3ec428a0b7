import { readdirSync, readFileSync } from 'node:fs';
import { CORES } from './machine-cpu';

const TICKS_PER_SECOND = 100;

interface ProcessEntry {
  pid: string;
  ppid: string;
  argv: string[];
  ticks: number;
  /** The ticks of its children that have exited and been reaped. */
  reapedTicks: number;
}

function processes(): ProcessEntry[] {
  const entries: ProcessEntry[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // The command name in parentheses may hold spaces: the fields are counted from after its end.
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      entries.push({ pid, ppid: fields[1]!, argv, ticks: Number(fields[11]) + Number(fields[12]), reapedTicks: Number(fields[13]) + Number(fields[14]) });
    } catch {
      // gone meanwhile
    }
  }
  return entries;
}

/** Which processes a group is: a predicate on a process's id and argv; `withChildren` counts their children too (PostgreSQL's backends). */
export type ProcessGroups = Record<string, { match: (process: { pid: number; argv: string[] }) => boolean; withChildren?: boolean }>;

/** CPU-seconds per group of processes, and the machine's busy CPU-seconds, at one instant. */
export interface GroupCpuReading {
  at: number;
  machineS: number;
  groups: Record<string, number>;
}

function machineBusySeconds(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq] = fields;
  return (user! + nice! + system! + irq! + softirq!) / TICKS_PER_SECOND;
}

/**
 * One reading of each group's CPU (Linux): the processes the group's predicate accepts, and
 * their children if asked, so PostgreSQL's backends count with their postmaster: the live ones,
 * and those that exited (an idle pool connection closed), which the kernel adds to their parent.
 */
export function readGroupCpu(groups: ProcessGroups): GroupCpuReading {
  const all = processes();
  const result: Record<string, number> = {};
  for (const [name, { match, withChildren }] of Object.entries(groups)) {
    const roots = new Set(all.filter((p) => match({ pid: Number(p.pid), argv: p.argv })).map((p) => p.pid));
    const ticks = all
      .filter((p) => roots.has(p.pid) || (withChildren && roots.has(p.ppid)))
      .reduce((sum, p) => sum + p.ticks + (withChildren && roots.has(p.pid) ? p.reapedTicks : 0), 0);
    result[name] = ticks / TICKS_PER_SECOND;
  }
  return { at: Date.now(), machineS: machineBusySeconds(), groups: result };
}

/** CPU-seconds spent over one or more windows: the wall-clock seconds, the machine's busy seconds, each group's. */
export interface GroupCpuSpent {
  wallS: number;
  machineS: number;
  groups: Record<string, number>;
}

/** Adds the window between two readings to `into` (a new tally when absent) and returns it. */
export function addSpent(from: GroupCpuReading, to: GroupCpuReading, into: GroupCpuSpent = { wallS: 0, machineS: 0, groups: {} }): GroupCpuSpent {
  into.wallS += (to.at - from.at) / 1000;
  into.machineS += to.machineS - from.machineS;
  for (const name of Object.keys(to.groups)) into.groups[name] = (into.groups[name] ?? 0) + to.groups[name]! - (from.groups[name] ?? 0);
  return into;
}

/** Milliseconds of CPU per operation, per group and for the whole machine, and how busy the cores were. */
export function cpuPerOperation(spent: GroupCpuSpent, operations: number): string {
  const perOp = (seconds: number) => ((seconds * 1000) / operations).toFixed(2);
  const groups = Object.entries(spent.groups).map(([name, seconds]) => `${name} ${perOp(seconds)}`);
  const busy = spent.machineS / CORES / spent.wallS;
  return `CPU ms per operation: ${groups.join(', ')}; machine ${perOp(spent.machineS)} (${(busy * 100).toFixed(0)} % of ${CORES} cores busy)`;
}
