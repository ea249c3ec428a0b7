import { z } from 'zod';
import type { IngestOutcome } from '../../services/usage/ingest-outcomes';
import type { EventShape } from './event-shape';

export const INGEST_STATUSES = ['ACCEPTED', 'DUPLICATE', 'REJECTED'] as const;

export const INGEST_REASONS = [
  'INVALID_EVENT',
  'DUPLICATE_IN_BATCH',
  'CUSTOMER_NOT_FOUND',
  'NO_METER',
  'TIMESTAMP_TOO_FAR_IN_FUTURE',
  'TIMESTAMP_TOO_OLD',
  'PROPERTY_MISSING',
  'PROPERTY_NOT_NUMERIC',
  'PROPERTY_NOT_SCALAR',
  'NEGATIVE_VALUE',
  'PROPERTY_TOO_LONG',
] as const;

export const ingestResult = z
  .object({
    event_id: z.string().optional().meta({ description: 'The event’s `event_id`; absent when it had none that is well-formed.' }),
    status: z.enum(INGEST_STATUSES).meta({
      description:
        'ACCEPTED: stored and measured now. DUPLICATE: an event with this `event_id` was accepted before (by any request, kept at least 400 days) or earlier in this batch; it is not counted again. REJECTED: not stored; `reason` says why.',
    }),
    reason: z.enum(INGEST_REASONS).optional().meta({ description: 'Why it was REJECTED, or DUPLICATE_IN_BATCH (docs/usage.md, "Ingestion").' }),
    context: z.record(z.string(), z.unknown()).optional().meta({
      description:
        'With the reason: INVALID_EVENT `field`, `message`; DUPLICATE_IN_BATCH `event_id`, `first_index`; CUSTOMER_NOT_FOUND `customer_id`; NO_METER `event_name`; TIMESTAMP_TOO_FAR_IN_FUTURE `timestamp`, `latest_accepted`; TIMESTAMP_TOO_OLD `timestamp`, `earliest_accepted`, `late_event_days`; PROPERTY_* and NEGATIVE_VALUE `meter_id`, `property`.',
    }),
  })
  .meta({ id: 'UsageEventResult' });

export const ingestionObject = z
  .object({
    results: z.array(ingestResult).meta({ description: 'One per event, in the order sent.' }),
    accepted: z.number().int(),
    duplicates: z.number().int(),
    rejected: z.number().int(),
  })
  .meta({ id: 'UsageEventIngestion' });

export type IngestionObject = z.infer<typeof ingestionObject>;
type IngestResult = z.infer<typeof ingestResult>;

/** The answer for a batch: each item's shape refusal or its outcome (`outcomes` in the order of the well-formed items). */
export function serializeIngestion(shapes: readonly EventShape[], outcomes: readonly IngestOutcome[]): IngestionObject {
  const answer: IngestionObject = { results: new Array(shapes.length), accepted: 0, duplicates: 0, rejected: 0 };
  let next = 0;
  shapes.forEach((shape, i) => {
    let result: IngestResult;
    if ('refusal' in shape) {
      result = { ...(shape.eventId === undefined ? {} : { event_id: shape.eventId }), status: 'REJECTED', reason: 'INVALID_EVENT', context: { ...shape.refusal } };
    } else {
      result = { event_id: shape.event.eventId, ...outcomes[next++]! };
    }
    if (result.status === 'ACCEPTED') answer.accepted++;
    else if (result.status === 'DUPLICATE') answer.duplicates++;
    else answer.rejected++;
    answer.results[i] = result;
  });
  return answer;
}
