import type { Overview } from '../../api/metrics';
import { money } from '../format';
import { amountChange, countChange, rateChange, rateText } from './change';
import { FigureCard } from './FigureCard';

/** The period's figures (metrics/get-overview), grouped as a merchant reads them, each with the previous period's. */
export function OverviewFigures({ overview }: { overview: Overview }) {
  const { currency } = overview;
  const amount = (id: string, label: string, figure: { current: number; previous: number }) => (
    <FigureCard
      id={id}
      label={label}
      value={money(figure.current, currency)}
      previous={money(figure.previous, currency)}
      change={amountChange(figure.current, figure.previous, currency)}
    />
  );
  const count = (id: string, label: string, figure: { current: number; previous: number }) => (
    <FigureCard id={id} label={label} value={String(figure.current)} previous={String(figure.previous)} change={countChange(figure.current, figure.previous)} />
  );
  const notes = overview.credit_notes.current;
  const failed = overview.failed_payments;
  return (
    <>
      <section aria-labelledby="overview-money">
        <h2 id="overview-money">Money</h2>
        <div className="figure-cards">
          {amount('gross-volume', 'Gross volume collected', overview.gross_volume)}
          {amount('refunds', 'Refunds', overview.refunds)}
          <FigureCard
            id="credit-notes"
            label="Credit notes"
            value={money(notes.total, currency)}
            previous={money(overview.credit_notes.previous.total, currency)}
            change={amountChange(notes.total, overview.credit_notes.previous.total, currency)}
          >
            <p className="hint" data-testid="credit-notes-split">
              Credited to balances {money(notes.balance_credit, currency)}, given back outside the platform {money(notes.out_of_band, currency)},
              refunded {money(notes.refund, currency)}, taken off before payment {money(notes.pre_payment, currency)}
            </p>
          </FigureCard>
          {amount('net-revenue', 'Net revenue', overview.net_revenue)}
        </div>
        <p className="hint">
          Net revenue is the volume collected less refunds and what credit notes gave back outside the platform; a credit note’s refunded part
          is already a refund, and a credit to a customer’s balance is no money given back (the invoices it pays collect that much less).
        </p>
      </section>
      <section aria-labelledby="overview-recurring">
        <h2 id="overview-recurring">Recurring revenue</h2>
        <div className="figure-cards">
          {amount('mrr', 'MRR at the period’s end', overview.mrr)}
          {amount('arr', 'ARR at the period’s end', overview.arr)}
        </div>
        <p className="hint">Active subscriptions’ recurring prices per month, coupons applied, trials left out (docs/metrics.md).</p>
      </section>
      <section aria-labelledby="overview-subscriptions">
        <h2 id="overview-subscriptions">Subscriptions</h2>
        <div className="figure-cards">
          {count('subscriptions-new', 'New', overview.subscriptions.new)}
          {count('subscriptions-churned', 'Churned', overview.subscriptions.churned)}
          {count('subscriptions-reactivated', 'Reactivated', overview.subscriptions.reactivated)}
        </div>
      </section>
      <section aria-labelledby="overview-failed">
        <h2 id="overview-failed">Failed payments</h2>
        <div className="figure-cards">
          <FigureCard
            id="failed-rate"
            label="Failed-payment rate"
            value={rateText(failed.current.rate)}
            previous={rateText(failed.previous.rate)}
            change={rateChange(failed.current.rate, failed.previous.rate)}
          >
            <p className="hint" data-testid="failed-rate-counts">
              {failed.current.failed} failed, {failed.current.succeeded} succeeded
            </p>
          </FigureCard>
          <FigureCard id="dunning" label="Invoices in dunning now" value={String(overview.dunning.invoice_count)}>
            <p className="hint">
              Amount due <span data-testid="dunning-amount">{money(overview.dunning.amount_due, currency)}</span>
            </p>
          </FigureCard>
        </div>
        {overview.top_decline_codes.length === 0 ? (
          <p data-testid="decline-codes-empty">No payment was declined with a code in this period.</p>
        ) : (
          <table data-testid="decline-codes">
            <caption>Top decline codes in the period</caption>
            <thead>
              <tr>
                <th scope="col">Decline code</th>
                <th scope="col">Payments</th>
              </tr>
            </thead>
            <tbody>
              {overview.top_decline_codes.map((row) => (
                <tr key={row.decline_code}>
                  <td>
                    <code>{row.decline_code}</code>
                  </td>
                  <td>{row.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
