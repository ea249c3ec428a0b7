import { z } from 'zod';
import { updateMeter as updateMeterService } from '../../services/usage/meters';
import { metadata } from '../common/metadata';
import { dateTime } from '../common/schemas';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { groupBy, meterFilters, meterId, meterName, meterObject, propertyPath, serializeMeter } from './schemas';

const DEFINITION_FIELDS = ['property', 'filters', 'group_by'] as const;
const CHANGES = ['name', 'metadata', ...DEFINITION_FIELDS] as const;

/** `event_name` and `aggregation` are fixed at creation (400 UNKNOWN_FIELD): usage already measured is of that event, so aggregated. */
export const updateMeterRequest = z
  .strictObject({
    id: meterId,
    name: meterName.optional(),
    metadata: metadata.nullable().optional().meta({ description: 'Replaces the whole metadata object; null removes it.' }),
    property: propertyPath.optional().meta({ description: 'A new version. Refused for a COUNT meter.' }),
    filters: meterFilters.optional().meta({ description: 'A new version; replaces the list (`[]`: no filters).' }),
    group_by: groupBy.optional().meta({ description: 'A new version; replaces the list (`[]`: no grouping).' }),
    effective_from: dateTime.optional().meta({
      description:
        'When a new version takes effect: events timestamped from then are measured by it. Default and earliest: now plus 5 minutes (events up to then may already be accepted, and measured once), and not before the newest version’s (422 METER_CHANGE_TOO_EARLY with `context.earliest`). Only with `property`, `filters` or `group_by`.',
    }),
  })
  .superRefine((request, ctx) => {
    if (!CHANGES.some((field) => request[field] !== undefined)) {
      ctx.addIssue({ code: 'custom', message: `Give at least one of ${CHANGES.join(', ')}.`, params: { type: 'REQUIRED' } });
    } else if (request.effective_from !== undefined && !DEFINITION_FIELDS.some((field) => request[field] !== undefined)) {
      ctx.addIssue({ code: 'custom', path: ['effective_from'], message: 'Only with `property`, `filters` or `group_by`: it dates a new version.', params: { type: 'INVALID' } });
    }
  })
  .meta({
    anyOf: CHANGES.map((field) => ({ required: [field] })),
    dependentSchemas: { effective_from: { anyOf: DEFINITION_FIELDS.map((field) => ({ required: [field] })) } },
  });

export const updateMeter = authorizedProcedure
  .meta(
    operation('meters/update', {
      summary: 'Update a meter',
      description:
        'Extension (docs/usage.md). `name` and `metadata` change in place. `property`, `filters` and `group_by` make a new version from `effective_from`, never reaching back into time already measured; the fields left out are kept from the newest version, and sending the newest definition again makes none. An ARCHIVED meter’s definition no longer changes (422 INCOMPATIBLE_STATUS).',
    }),
  )
  .input(updateMeterRequest)
  .output(meterObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'meters/update', input, (ctx) =>
      ctx.transaction(async (tx) =>
        serializeMeter(
          await updateMeterService(ctx, tx, ctx.principal.accountId, input.id, {
            name: input.name,
            metadata: input.metadata,
            property: input.property,
            filters: input.filters,
            groupBy: input.group_by,
            effectiveFrom: input.effective_from === undefined ? undefined : new Date(input.effective_from),
          }),
        ),
      ),
    ),
  );
