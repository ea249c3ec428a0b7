import { ApiError } from '../../domain/errors';
import { byIdRequest } from '../common/schemas';
import { authorizedProcedure, operation } from '../trpc';
import { serializeSettlement, settlementInclude, settlementObject } from './schemas';

export const getSettlement = authorizedProcedure
  .meta(
    operation('settlements/get', {
      summary: 'Get a settlement',
      description:
        'One provider payout for a legal entity, currency and day, with its SETTLEMENT and FINANCIAL_ENTRIES files; `download_url` appears once a file has SUCCEEDED and is valid for 15 minutes (docs/settlements.md).',
      accountLevelOnly: true,
    }),
  )
  .input(byIdRequest('settlement'))
  .output(settlementObject)
  .query(async ({ ctx, input }) => {
    const row = await ctx.db.settlement.findFirst({
      where: { id: input.id, accountId: ctx.principal.accountId },
      include: settlementInclude,
    });
    if (!row) throw ApiError.notFound('Settlement', input.id);
    return serializeSettlement(row, ctx.now());
  });
