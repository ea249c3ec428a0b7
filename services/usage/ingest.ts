import { formatDateTime } from '../../domain/datetime';
import { formatDecimal } from '../../domain/usage/decimal';
import { acceptedTimestampRange } from '../../domain/usage/ingestion-window';
import { contributionOf, isRefusal, versionAt, type Contribution, type MeasureRefusal } from '../../domain/usage/meters';
import type { Database, Prisma } from '../../prisma/client';
import type { Scope } from '../scope';
import { runIngestStatement, type ContributionColumns, type EventColumns } from './ingest-statement';
import { accountMeters, reloadAccountMeters, type AccountMeters } from './meter-cache';

/** One well-formed event of a batch (the transport checked its shape), with its place in the batch. */
export interface UsageEventInput {
  index: number;
  eventId: string;
  eventName: string;
  customerId: string;
  /** As sent: a section 1 date-time, microseconds kept. */
  timestamp: string;
  /** Epoch ms of `timestamp`. */
  at: number;
  properties: Record<string, unknown>;
  /** `properties` as JSON text. */
  propertiesJson: string;
}

export type RejectionReason =
  | 'INVALID_EVENT'
  | 'CUSTOMER_NOT_FOUND'
  | 'NO_METER'
  | 'TIMESTAMP_TOO_FAR_IN_FUTURE'
  | 'TIMESTAMP_TOO_OLD'
  | MeasureRefusal['reason'];

export type IngestOutcome =
  | { status: 'ACCEPTED' }
  | { status: 'DUPLICATE'; reason?: 'DUPLICATE_IN_BATCH'; context?: Record<string, unknown> }
  | { status: 'REJECTED'; reason: RejectionReason; context: Record<string, unknown> };

export interface IngestDependencies {
  now: () => Date;
  /** USAGE_LATE_EVENT_DAYS (api/config.ts). */
  lateEventDays: number;
}

/** A meter change that keeps landing between measuring and storing: stop rather than loop. */
const MAX_MEASUREMENTS = 5;

const ACCEPTED: IngestOutcome = { status: 'ACCEPTED' };
const DUPLICATE: IngestOutcome = { status: 'DUPLICATE' };

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
  if (timely.length > 0) await measureAndStore(db, scope, events, timely, outcomes);
  return outcomes as IngestOutcome[];
}

function rejected(reason: RejectionReason, context: Record<string, unknown>): IngestOutcome {
  return { status: 'REJECTED', reason, context };
}

async function measureAndStore(
  db: Database | Prisma.TransactionClient,
  scope: Scope,
  events: readonly UsageEventInput[],
  timely: readonly number[],
  outcomes: (IngestOutcome | undefined)[],
): Promise<void> {
  let meters = await accountMeters(db, scope.accountId);
  for (let attempt = 1; ; attempt++) {
    const measured = measure(meters, events, timely);
    const customerIds = [...new Set(measured.candidates.map((i) => events[i]!.customerId))];
    const result = await runIngestStatement(db, {
      accountId: scope.accountId,
      stamp: meters.stamp,
      customerIds,
      channels: scope.channels,
      events: eventColumns(events, measured.candidates),
      contributions: measured.contributions,
    });
    if (result.fresh) {
      for (const [i, outcome] of measured.refused) outcomes[i] = outcome;
      const known = new Set(result.known);
      const accepted = new Set(result.accepted);
      for (const i of measured.candidates) {
        const event = events[i]!;
        outcomes[i] = accepted.has(i) ? ACCEPTED : known.has(event.customerId) ? DUPLICATE : rejected('CUSTOMER_NOT_FOUND', { customer_id: event.customerId });
      }
      return;
    }
    if (attempt >= MAX_MEASUREMENTS) throw new Error(`The meters of account ${scope.accountId} changed under ${MAX_MEASUREMENTS} measurements of one batch in a row.`);
    meters = await reloadAccountMeters(db, scope.accountId);
  }
}

interface Measurement {
  /** Indexes of the events to store. */
  candidates: number[];
  contributions: ContributionColumns;
  refused: [number, IngestOutcome][];
}

/** What each timely event adds to each meter of its name, by the version in force at its timestamp; the ones the meters refuse. */
function measure(meters: AccountMeters, events: readonly UsageEventInput[], timely: readonly number[]): Measurement {
  const measurement: Measurement = { candidates: [], contributions: { ord: [], meterId: [], groupKey: [], value: [], distinct: [] }, refused: [] };
  const found: Contribution[] = [];
  for (const i of timely) {
    const event = events[i]!;
    const named = meters.byEventName.get(event.eventName);
    if (!named) {
      measurement.refused.push([i, rejected('NO_METER', { event_name: event.eventName })]);
      continue;
    }
    found.length = 0;
    let refusal: MeasureRefusal | undefined;
    for (const meter of named) {
      const version = versionAt(meter.versions, event.at);
      const result = version && contributionOf(version, event.properties);
      if (!result) continue;
      if (isRefusal(result)) {
        refusal = result;
        break;
      }
      found.push(result);
    }
    if (refusal) {
      measurement.refused.push([i, rejected(refusal.reason, { meter_id: refusal.meterId, property: refusal.property })]);
      continue;
    }
    measurement.candidates.push(i);
    const columns = measurement.contributions;
    for (const contribution of found) {
      columns.ord.push(i);
      columns.meterId.push(contribution.meterId);
      columns.groupKey.push(contribution.groupKey);
      columns.value.push(formatDecimal(contribution.value));
      columns.distinct.push(contribution.distinct);
    }
  }
  return measurement;
}

function eventColumns(events: readonly UsageEventInput[], candidates: readonly number[]): EventColumns {
  const columns: EventColumns = { ord: [], eventId: [], eventName: [], customerId: [], timestamp: [], properties: [] };
  for (const i of candidates) {
    const event = events[i]!;
    columns.ord.push(i);
    columns.eventId.push(event.eventId);
    columns.eventName.push(event.eventName);
    columns.customerId.push(event.customerId);
    columns.timestamp.push(event.timestamp);
    columns.properties.push(event.propertiesJson);
  }
  return columns;
}
