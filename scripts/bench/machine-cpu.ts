import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/**
 * The whole machine's CPU over a window, from /proc/stat (Linux), and one process's. The machine's
 * counts every process, the Temporal server and both PostgreSQL databases as much as the worker.
 * Beside a ceiling measured the same way, CPU per operation says how far a ratio can go while the
 * machine is the limit.
 */
export interface CpuSample {
  at: number;
  /** CPU-seconds the cores have spent running something (not idle, not waiting on I/O, not stolen) since boot. */
  busyS: number;
  /** CPU-seconds the watched process has used (user + system), all its threads. */
  processS: number;
}

const TICKS_PER_SECOND = 100;

function processSeconds(pid: number): number {
  // The command name in parentheses may hold spaces and parentheses: the fields are counted from after its end.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** One reading of the machine's and `pid`'s CPU: two readings taken around a window give its cost (cpuBetween). */
export function cpuSample(pid: number): CpuSample {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  // Steal (time the hypervisor gave to other guests) is left out: no process here used it.
  const [user, nice, system, , , irq, softirq] = fields;
  return { at: Date.now(), busyS: (user! + nice! + system! + irq! + softirq!) / TICKS_PER_SECOND, processS: processSeconds(pid) };
}

export interface MachineCpu {
  /** CPU-seconds between two instants (epoch ms), interpolated between samples: the machine's busy time, and the watched process's. */
  secondsBetween(from: number, to: number): { machineS: number; processS: number };
  stop(): void;
}

/** Samples the machine, and the process `pid`, every `everyMs` until stopped. */
export function sampleMachineCpu(pid: number, everyMs = 200): MachineCpu {
  const samples: CpuSample[] = [cpuSample(pid)];
  const timer = setInterval(() => samples.push(cpuSample(pid)), everyMs);
  const at = (instant: number, field: 'busyS' | 'processS'): number => {
    const after = samples.findIndex((s) => s.at >= instant);
    if (after <= 0) return after === 0 ? samples[0]![field] : samples[samples.length - 1]![field];
    const a = samples[after - 1]!;
    const b = samples[after]!;
    return a[field] + ((b[field] - a[field]) * (instant - a.at)) / (b.at - a.at);
  };
  return {
    secondsBetween: (from, to) => ({ machineS: at(to, 'busyS') - at(from, 'busyS'), processS: at(to, 'processS') - at(from, 'processS') }),
    // A last sample, so a window ending after the last tick is not cut short.
    stop: () => {
      clearInterval(timer);
      samples.push(cpuSample(pid));
    },
  };
}

export const CORES = cpus().length;

/** What a window between two readings cost: CPU-seconds of the machine and of the watched process, and the share of the cores in use. */
export function cpuBetween(from: CpuSample, to: CpuSample): { machineS: number; processS: number; busyShare: number } {
  const machineS = to.busyS - from.busyS;
  return { machineS, processS: to.processS - from.processS, busyShare: machineS / CORES / ((to.at - from.at) / 1000) };
}
