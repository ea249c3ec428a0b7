import { z } from 'zod';
import { readsProperty } from '../../domain/usage/meter-rules';
import { AGGREGATIONS } from '../../domain/usage/meters';
import { createMeter as createMeterService } from '../../services/usage/meters';
import { metadata } from '../common/metadata';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { aggregation, eventName, groupBy, meterFilters, meterName, meterObject, propertyPath, serializeMeter } from './schemas';

const PROPERTY_READERS = AGGREGATIONS.filter(readsProperty);

export const createMeterRequest = z
  .strictObject({
    name: meterName,
    event_name: eventName,
    aggregation: aggregation.meta({
      description:
        'COUNT: events. SUM: the property’s values (numbers, not negative). MAX: the largest value. UNIQUE_COUNT: distinct values. LATEST: the value of the latest event by timestamp.',
    }),
    property: propertyPath.optional().meta({ description: 'Required for SUM, MAX, UNIQUE_COUNT and LATEST; refused for COUNT.' }),
    filters: meterFilters.optional(),
    group_by: groupBy.optional(),
    metadata: metadata.optional(),
  })
  .meta({
    oneOf: [
      { properties: { aggregation: { const: 'COUNT' } }, not: { required: ['property'] } },
      { properties: { aggregation: { enum: PROPERTY_READERS } }, required: ['property'] },
    ],
  });

export const createMeter = authorizedProcedure
  .meta(
    operation('meters/create', {
      summary: 'Create a meter',
      description:
        'Extension (docs/usage.md): what usage events of one `event_name` count toward, and how. Version 1 of its definition is in force for every timestamp: the meter measures the events accepted from now on (events accepted before it existed are not measured again). `event_name` and `aggregation` are fixed; meters/update versions the rest.',
    }),
  )
  .input(createMeterRequest)
  .output(meterObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'meters/create', input, (ctx) =>
      ctx.transaction(async (tx) =>
        serializeMeter(
          await createMeterService(ctx, tx, ctx.principal.accountId, {
            name: input.name,
            eventName: input.event_name,
            aggregation: input.aggregation,
            property: input.property ?? null,
            filters: input.filters ?? [],
            groupBy: input.group_by ?? [],
            metadata: input.metadata,
          }),
        ),
      ),
    ),
  );
