import { formatDecimal } from '../../domain/usage/decimal';
import { contributionOf, isRefusal, versionAt, type Contribution, type MeasureRefusal } from '../../domain/usage/meters';
import type { Database, Prisma } from '../../prisma/client';
import type { IngestOutcome, RejectionReason, UsageEventInput } from './ingest-outcomes';
import { runIngestStatement, type ContributionColumns, type EventColumns } from './ingest-statement';
import { accountMeters, reloadAccountMeters, type AccountMeters } from './meter-cache';

/** A batch's events past the checks that need no database, to be measured and stored. */
export interface TimelyBatch {
  events: readonly UsageEventInput[];
  /** Indexes into `events` of the ones to measure and store. */
  timely: readonly number[];
}

/** The outcome of each timely event, by its index in its batch. */
export type StoredOutcomes = Map<number, IngestOutcome>;

/** A meter change that keeps landing between measuring and storing: stop rather than loop. */
const MAX_MEASUREMENTS = 5;

const ACCEPTED: IngestOutcome = { status: 'ACCEPTED' };
const DUPLICATE: IngestOutcome = { status: 'DUPLICATE' };

export function rejected(reason: RejectionReason, context: Record<string, unknown>): IngestOutcome {
  return { status: 'REJECTED', reason, context };
}

/**
 * Measures the batches with the account's meters and stores them with one statement
 * (ingest-statement.ts); measures again with the meters read anew when they changed meanwhile.
 * The batches share no event id (ingest-queue.ts keeps apart those that do), so each id is one
 * candidate and the statement's dedupe is the only one. `db` is the pool or the caller's
 * transaction.
 */
export async function storeBatches(
  db: Database | Prisma.TransactionClient,
  accountId: string,
  channels: readonly string[] | null,
  batches: readonly TimelyBatch[],
): Promise<StoredOutcomes[]> {
  let meters = await accountMeters(db, accountId);
  for (let attempt = 1; ; attempt++) {
    const measured = measureAll(meters, batches);
    const result = await runIngestStatement(db, {
      accountId,
      stamp: meters.stamp,
      customerIds: [...measured.customerIds],
      channels,
      events: measured.events,
      contributions: measured.contributions,
    });
    if (result.fresh) {
      const known = new Set(result.known);
      const accepted = new Set(result.accepted);
      return batches.map((batch, k) => {
        const outcomes: StoredOutcomes = new Map(measured.refused[k]);
        const base = measured.bases[k]!;
        for (const i of measured.candidates[k]!) {
          const customerId = batch.events[i]!.customerId;
          outcomes.set(i, accepted.has(base + i) ? ACCEPTED : known.has(customerId) ? DUPLICATE : rejected('CUSTOMER_NOT_FOUND', { customer_id: customerId }));
        }
        return outcomes;
      });
    }
    if (attempt >= MAX_MEASUREMENTS) throw new Error(`The meters of account ${accountId} changed under ${MAX_MEASUREMENTS} measurements of one batch in a row.`);
    meters = await reloadAccountMeters(db, accountId);
  }
}

interface Measurement {
  /** Where each batch's events start in the statement's `ord` numbering. */
  bases: number[];
  /** Per batch, the indexes of the events to store. */
  candidates: number[][];
  /** Per batch, the events the meters refuse. */
  refused: [number, IngestOutcome][][];
  customerIds: Set<string>;
  events: EventColumns;
  contributions: ContributionColumns;
}

/** What each timely event adds to each meter of its name, by the version in force at its timestamp; the ones the meters refuse. */
function measureAll(meters: AccountMeters, batches: readonly TimelyBatch[]): Measurement {
  const measurement: Measurement = {
    bases: [],
    candidates: [],
    refused: [],
    customerIds: new Set(),
    events: { ord: [], eventId: [], eventName: [], customerId: [], timestamp: [], properties: [] },
    contributions: { ord: [], meterId: [], groupKey: [], value: [], distinct: [] },
  };
  const found: Contribution[] = [];
  let base = 0;
  for (const batch of batches) {
    const candidates: number[] = [];
    const refused: [number, IngestOutcome][] = [];
    measurement.bases.push(base);
    measurement.candidates.push(candidates);
    measurement.refused.push(refused);
    for (const i of batch.timely) {
      const event = batch.events[i]!;
      const named = meters.byEventName.get(event.eventName);
      if (!named) {
        refused.push([i, rejected('NO_METER', { event_name: event.eventName })]);
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
        refused.push([i, rejected(refusal.reason, { meter_id: refusal.meterId, property: refusal.property })]);
        continue;
      }
      candidates.push(i);
      const ord = base + i;
      const { events, contributions } = measurement;
      events.ord.push(ord);
      events.eventId.push(event.eventId);
      events.eventName.push(event.eventName);
      events.customerId.push(event.customerId);
      events.timestamp.push(event.timestamp);
      events.properties.push(event.propertiesJson);
      measurement.customerIds.add(event.customerId);
      for (const contribution of found) {
        contributions.ord.push(ord);
        contributions.meterId.push(contribution.meterId);
        contributions.groupKey.push(contribution.groupKey);
        contributions.value.push(formatDecimal(contribution.value));
        contributions.distinct.push(contribution.distinct);
      }
    }
    base += batch.events.length;
  }
  return measurement;
}
