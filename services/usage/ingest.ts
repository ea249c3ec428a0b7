import { formatDateTime } from '../../domain/datetime';
import { acceptedTimestampRange } from '../../domain/usage/ingestion-window';
import { ownPoolOf, type Database, type Prisma } from '../../prisma/client';
import type { Scope } from '../scope';
import { storeInTurn } from './ingest-queue';
import { rejected, storeBatches } from './ingest-store';
import type { IngestOutcome, UsageEventInput } from './ingest-outcomes';

export interface IngestDependencies {
  now: () => Date;
  /** USAGE_LATE_EVENT_DAYS (api/config.ts). */
  lateEventDays: number;
}

/**
 * usage-events/ingest (docs/usage.md, "Ingestion"): each event judged on its own, in this
 * order: a repeated id within the batch, the accepted timestamp window, the account's ACTIVE
 * meters of its name (none: NO_METER) and what each meter's version in force at its timestamp
 * makes of it (a refusal rejects the event), then, in the one statement that stores the batch,
 * its customer and whether its id was accepted before (DUPLICATE). Outcomes in the order given.
 *
 * `db` is the pool (the statement commits on its own) or the caller's transaction.
 */
export async function ingestUsageEvents(
  deps: IngestDependencies,
  db: Database | Prisma.TransactionClient,
  scope: Scope,
  events: readonly UsageEventInput[],
): Promise<IngestOutcome[]> {
  const outcomes: (IngestOutcome | undefined)[] = new Array(events.length);
  const now = deps.now().getTime();
  const window = acceptedTimestampRange(now, deps.lateEventDays);
  const firstIndex = new Map<string, number>();
  const timely: number[] = [];
  events.forEach((event, i) => {
    const first = firstIndex.get(event.eventId);
    if (first !== undefined) {
      outcomes[i] = { status: 'DUPLICATE', reason: 'DUPLICATE_IN_BATCH', context: { event_id: event.eventId, first_index: first } };
      return;
    }
    firstIndex.set(event.eventId, event.index);
    if (event.at > window.latest) {
      outcomes[i] = rejected('TIMESTAMP_TOO_FAR_IN_FUTURE', { timestamp: event.timestamp, latest_accepted: formatDateTime(new Date(window.latest)) });
    } else if (event.at < window.earliest) {
      outcomes[i] = rejected('TIMESTAMP_TOO_OLD', {
        timestamp: event.timestamp,
        earliest_accepted: formatDateTime(new Date(window.earliest)),
        late_event_days: deps.lateEventDays,
      });
    } else {
      timely.push(i);
    }
  });
  if (timely.length > 0) {
    const batch = { events, timely };
    // The pool: in the account's turn, maybe with other batches. A transaction: alone, in it.
    const stored = ownPoolOf(db) ? await storeInTurn(db as Database, scope.accountId, scope.channels, batch) : (await storeBatches(db, scope.accountId, scope.channels, [batch]))[0]!;
    for (const [i, outcome] of stored) outcomes[i] = outcome;
  }
  return outcomes as IngestOutcome[];
}
