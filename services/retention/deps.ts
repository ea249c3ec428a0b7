import type { Database } from '../../prisma/client';
import type { RetentionSettings } from './settings';

/** What every retention purge needs; `progress` hears the running count after each full batch (the activity heartbeats it). */
export interface RetentionDeps {
  db: Database;
  now: () => Date;
  settings: RetentionSettings;
}

export type PurgeProgress = (done: { deleted: number }) => void;

export type PurgeResult = { deleted: number; batches: number };

export function cutoff(deps: RetentionDeps, retentionMs: number): Date {
  return new Date(deps.now().getTime() - retentionMs);
}
