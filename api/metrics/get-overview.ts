import { formatDateTime } from '../../domain/datetime';
import { readOverview, type CreditNoteFigures } from '../../services/metrics/overview';
import { authorizedProcedure, operation } from '../trpc';
import { currencyOf, overviewObject, periodOf, periodRequest, serializePeriod } from './schemas';

const creditNotes = (figures: CreditNoteFigures) => ({
  total: figures.total,
  pre_payment: figures.prePayment,
  refund: figures.refund,
  balance_credit: figures.balanceCredit,
  out_of_band: figures.outOfBand,
});

export const getOverview = authorizedProcedure
  .meta(
    operation('metrics/get-overview', {
      summary: 'Get the overview’s figures of a period',
      description:
        'Extension (docs/metrics.md): money collected and given back, MRR and ARR, new, churned and reactivated subscriptions, failed payments and top decline codes of a period, each beside the previous period of the same length; invoices in dunning now. Account-level keys only.',
      accountLevelOnly: true,
    }),
  )
  .input(periodRequest)
  .output(overviewObject)
  .query(async ({ ctx, input }) => {
    const now = ctx.now();
    const figures = await readOverview(ctx.db, ctx.principal.accountId, { currency: input.currency, period: periodOf(input) }, now.getTime());
    return {
      ...currencyOf(figures.currency),
      period: serializePeriod(figures.period),
      previous_period: serializePeriod(figures.previousPeriod),
      as_of: formatDateTime(now),
      gross_volume: figures.grossVolume,
      refunds: figures.refunds,
      credit_notes: { current: creditNotes(figures.creditNotes.current), previous: creditNotes(figures.creditNotes.previous) },
      net_revenue: figures.netRevenue,
      mrr: figures.mrr,
      arr: figures.arr,
      subscriptions: figures.subscriptions,
      dunning: { invoice_count: figures.dunning.invoiceCount, amount_due: figures.dunning.amountDue },
      failed_payments: figures.failedPayments,
      top_decline_codes: figures.topDeclineCodes.map((code) => ({ decline_code: code.declineCode, count: code.count })),
    };
  });
