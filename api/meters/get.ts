import { z } from 'zod';
import { getMeter as getMeterService } from '../../services/usage/meters';
import { authorizedProcedure, operation } from '../trpc';
import { meterId, meterObject, serializeMeter } from './schemas';

export const getMeter = authorizedProcedure
  .meta(operation('meters/get', { summary: 'Get a meter', description: 'Extension (docs/usage.md). Archived meters too.' }))
  .input(z.strictObject({ id: meterId }))
  .output(meterObject)
  .query(async ({ ctx, input }) => serializeMeter(await getMeterService(ctx.db, ctx.principal.accountId, input.id)));
