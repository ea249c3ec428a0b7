import { z } from 'zod';
import { ApiError } from '../../domain/errors';
import { authorizedProcedure, operation } from '../trpc';
import { assertAntifraudEnabled } from '../../services/antifraud-lists/guard';
import { findList } from '../../services/antifraud-lists/repository';
import { antifraudId, antifraudListObject, serializeList } from './schemas';

export const getAntifraudList = authorizedProcedure
  .meta(operation('antifraud-lists/get', { summary: 'Get an antifraud list' }))
  .input(z.strictObject({ id: antifraudId }))
  .output(antifraudListObject)
  .query(async ({ ctx, input }) => {
    await assertAntifraudEnabled(ctx.db, ctx.principal.accountId);
    const row = await findList(ctx.db, ctx.principal.accountId, input.id);
    if (!row) throw ApiError.notFound('Antifraud list', input.id);
    return serializeList(row);
  });
