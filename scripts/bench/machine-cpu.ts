import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';

/**
 * The whole machine's CPU over a window, from /proc/stat (Linux): every process counts, the
 * Temporal server and both PostgreSQL databases as much as the worker. Beside a ceiling measured
 * the same way, CPU per operation says how far a ratio can go while the machine is the limit.
 */
interface Sample {
  at: number;
  /** CPU-seconds spent busy (not idle, not waiting on I/O) by all cores since boot. */
  busyS: number;
}

const TICKS_PER_SECOND = 100;

function sample(): Sample {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, , , irq, softirq, steal] = fields;
  return { at: Date.now(), busyS: (user! + nice! + system! + irq! + softirq! + steal!) / TICKS_PER_SECOND };
}

export interface MachineCpu {
  /** Busy CPU-seconds between two instants (epoch ms), interpolated between samples. */
  busySecondsBetween(from: number, to: number): number;
  stop(): void;
}

/** Samples the machine every `everyMs` until stopped. */
export function sampleMachineCpu(everyMs = 200): MachineCpu {
  const samples: Sample[] = [sample()];
  const timer = setInterval(() => samples.push(sample()), everyMs);
  const busyAt = (at: number): number => {
    const after = samples.findIndex((s) => s.at >= at);
    if (after <= 0) return after === 0 ? samples[0]!.busyS : samples[samples.length - 1]!.busyS;
    const a = samples[after - 1]!;
    const b = samples[after]!;
    return a.busyS + ((b.busyS - a.busyS) * (at - a.at)) / (b.at - a.at);
  };
  return {
    busySecondsBetween: (from, to) => busyAt(to) - busyAt(from),
    stop: () => clearInterval(timer),
  };
}

export const CORES = cpus().length;
