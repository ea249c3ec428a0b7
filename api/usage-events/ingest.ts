import { z } from 'zod';
import { DEFAULT_LATE_EVENT_DAYS } from '../../domain/usage/ingestion-window';
import { ingestUsageEvents as ingestUsageEventsService } from '../../services/usage/ingest';
import type { UsageEventInput } from '../../services/usage/ingest-outcomes';
import { reachScope } from '../auth/channel-scope';
import { channelIdField } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation, type Transaction } from '../trpc';
import type { Database } from '../../prisma/client';
import { MAX_EVENT_ID_LENGTH, MAX_PROPERTIES_BYTES, MAX_PROPERTIES_DEPTH, MAX_TOP_LEVEL_PROPERTIES, readUsageEvent } from './event-shape';
import { ingestionObject, serializeIngestion } from './schemas';

export const MAX_EVENTS_PER_BATCH = 1000;

/**
 * The items are not described by a schema the batch must meet: each is judged on its own and a
 * bad one is REJECTED in the answer (INVALID_EVENT) while the rest go on, so the document states
 * their shape in words rather than as constraints the server does not enforce on the batch.
 */
const usageEvent = z.unknown().meta({
  description:
    `A usage event: \`event_id\` (1 to ${MAX_EVENT_ID_LENGTH} characters, no control characters; the same id is counted once), ` +
    '`event_name` (1 to 100 letters, digits, `_`, `.`, `:` or `-`), `customer_id`, `timestamp` (UTC date-time, up to six fractional digits), ' +
    `\`properties\` (optional object: at most ${MAX_TOP_LEVEL_PROPERTIES} keys at the top level, ${MAX_PROPERTIES_DEPTH} levels deep, ${MAX_PROPERTIES_BYTES} bytes as JSON). ` +
    'An item that is not such an event is REJECTED with INVALID_EVENT; the others are not affected.',
  examples: [{ event_id: 'req_8f14e45f', event_name: 'api.request', customer_id: 'cust_01jdv3s4e7g1j5m8q2t6w0y3ef', timestamp: '2026-11-21T09:30:00.000000Z', properties: { region: 'eu', tokens: 1200 } }],
});

export const ingestUsageEventsRequest = z.strictObject({
  channel_id: channelIdField.meta({
    description: 'Only customers of this channel. Left out: customers of every channel the key reaches (all of the account’s for an account-level key).',
  }),
  events: z.array(usageEvent).min(1).max(MAX_EVENTS_PER_BATCH),
});

export const ingestUsageEvents = authorizedProcedure
  .meta({
    ...operation('usage-events/ingest', {
      summary: 'Ingest usage events',
      description:
        `Extension (docs/usage.md, "Ingestion"): 1 to ${MAX_EVENTS_PER_BATCH} events, each ACCEPTED, DUPLICATE or REJECTED on its own, in the order sent. ` +
        'An accepted event is measured by every ACTIVE meter of its `event_name` (the version in force at its timestamp) and shows in usage/summary at once. ' +
        'Idempotent by `event_id` for at least 400 days; an `Idempotency-Key` also replays the first answer.',
    }),
    judgesItemsAlone: 'events',
  })
  .input(ingestUsageEventsRequest)
  .output(ingestionObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'usage-events/ingest', input, async (ctx) => {
      const scope = reachScope(ctx.principal, input.channel_id);
      const shapes = input.events.map(readUsageEvent);
      const events: UsageEventInput[] = [];
      for (const shape of shapes) if ('event' in shape) events.push(shape.event);
      const deps = { now: ctx.now, lateEventDays: ctx.usageLateEventDays ?? DEFAULT_LATE_EVENT_DAYS };
      const answer = async (db: Database | Transaction) => serializeIngestion(shapes, await ingestUsageEventsService(deps, db, scope, events));
      // Without a key the batch is one statement committing on its own; under one, that
      // statement and the stored answer commit together.
      return ctx.idempotencyKey === undefined ? answer(ctx.db) : ctx.transaction(answer);
    }),
  );
