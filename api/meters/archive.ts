import { z } from 'zod';
import { archiveMeter as archiveMeterService } from '../../services/usage/meters';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { meterId, meterObject, serializeMeter } from './schemas';

export const archiveMeter = authorizedProcedure
  .meta(
    operation('meters/archive', {
      summary: 'Archive a meter',
      description:
        'Extension (docs/usage.md). ACTIVE → ARCHIVED, for good: events accepted from now on are not measured by it; what it measured stays readable. Refused (422 METER_IN_USE) while a subscription that is not CANCELLED or EXPIRED has a line with a USAGE price of the meter. An ARCHIVED meter is answered as it is.',
    }),
  )
  .input(z.strictObject({ id: meterId }))
  .output(meterObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'meters/archive', input, (ctx) =>
      ctx.transaction(async (tx) => serializeMeter(await archiveMeterService(ctx, tx, ctx.principal.accountId, input.id))),
    ),
  );
