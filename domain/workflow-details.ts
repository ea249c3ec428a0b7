import { formatDateTime } from './datetime';

/** "Waiting until 2026-12-01T00:00:00.000000Z to bill cycle 4": a run's current details during a long wait. */
export function waitingUntil(at: number, purpose: string): string {
  return `Waiting until ${formatDateTime(new Date(at))} ${purpose}`;
}

/**
 * The current details of a workflow that continues as new: Temporal starts the next run without
 * the static summary the first run was given, so every run states it again above what it does now.
 */
export function runDetails(summary: string, now: string): string {
  return `${summary}\n\n${now}`;
}
