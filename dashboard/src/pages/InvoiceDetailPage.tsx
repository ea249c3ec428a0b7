import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Invoice, Refund } from '../api/types';
import { v2 } from '../api/v2';
import { customerName } from '../components/customerName';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime, money } from '../components/format';
import { PageHeading } from '../components/PageHeading';
import { Link } from '../router';
import { useCan } from '../session';

export function InvoiceDetailPage({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const can = useCan();
  const client = useQueryClient();
  const invoice = useQuery({ queryKey: ['invoices', id], queryFn: () => v2<Invoice>('/v2/invoices/get', { id }) });
  const [refunds, setRefunds] = useState<Refund[]>([]);
  const [instrument, setInstrument] = useState('');
  const [refundAmount, setRefundAmount] = useState('');
  const [refundReason, setRefundReason] = useState('');
  const refresh = () => client.invalidateQueries({ queryKey: ['invoices'] });
  const action = useMutation({
    mutationFn: async (which: 'finalize' | 'void' | 'pay' | 'refund') => {
      if (which === 'pay') return v2('/v2/invoices/pay', { id, payment_instrument_id: instrument.trim() });
      if (which === 'refund') {
        const result = await v2<{ refund: Refund }>('/v2/invoices/refund', {
          id,
          ...(refundAmount ? { amount: Number(refundAmount) } : {}),
          ...(refundReason ? { reason: refundReason } : {}),
        });
        setRefunds((list) => [...list, result.refund]);
        return result;
      }
      return v2(`/v2/invoices/${which}`, { id });
    },
    onSuccess: refresh,
  });
  const data = invoice.data;
  return (
    <>
      <p>
        <Link to="/invoices">← All invoices</Link>
      </p>
      <PageHeading title="Invoice">Invoice {id}</PageHeading>
      <ErrorMessage error={invoice.error} />
      {data ? (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd data-testid="invoice-status">{data.status}</dd>
            <dt>Customer</dt>
            <dd>
              <Link to={`/customers/${data.customer.id}`}>{customerName(data.customer)}</Link> {data.customer.email ?? ''}
            </dd>
            <dt>Total</dt>
            <dd>{money(data.total_amount, data.currency)}</dd>
            <dt>Amount due</dt>
            <dd>{money(data.amount_due, data.currency)}</dd>
            {data.amount_details ? (
              <>
                <dt>Subtotal / discount / tax</dt>
                <dd>
                  {money(data.amount_details.subtotal, data.currency)} / {money(data.amount_details.discount, data.currency)} /{' '}
                  {money(data.amount_details.tax, data.currency)}
                </dd>
              </>
            ) : null}
            <dt>Collection</dt>
            <dd>{data.collection_method}</dd>
            <dt>Due</dt>
            <dd>{dateTime(data.due_at)}</dd>
            <dt>Finalized / paid / voided</dt>
            <dd>
              {dateTime(data.finalized_at)} / {dateTime(data.paid_at)} / {dateTime(data.voided_at)}
            </dd>
            {data.subscription_id ? (
              <>
                <dt>Subscription</dt>
                <dd>
                  <Link to={`/subscriptions/${data.subscription_id}`}>{data.subscription_id}</Link>
                </dd>
              </>
            ) : null}
            <dt>PDF</dt>
            <dd>{data.pdf_url ? <a href={data.pdf_url}>Download the invoice PDF</a> : 'available once finalized'}</dd>
          </dl>
          <table>
            <caption>Lines</caption>
            <thead>
              <tr>
                <th scope="col">Description</th>
                <th scope="col">Quantity</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {data.line_items.map((line) => (
                <tr key={line.id}>
                  <td>{line.description ?? '—'}</td>
                  <td>{line.quantity}</td>
                  <td>{money(line.amount, line.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <section aria-labelledby="payments">
            <h2 id="payments">Payments and refunds</h2>
            <p>
              {data.paid_at ? `Paid ${dateTime(data.paid_at)}${data.payment_instrument_id ? ` with ${data.payment_instrument_id}` : ''}.` : 'Not paid.'}
            </p>
            {refunds.length > 0 ? (
              <ul>
                {refunds.map((refund) => (
                  <li key={refund.id}>
                    Refund {refund.id}: {money(refund.amount, refund.currency)} {refund.status} {refund.reason ?? ''}
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
          <section aria-labelledby="invoice-actions">
            <h2 id="invoice-actions">Actions</h2>
            <div className="actions">
              {can('invoices:finalize') && data.status === 'DRAFT' ? (
                <button type="button" onClick={() => action.mutate('finalize')} disabled={action.isPending}>
                  Finalize
                </button>
              ) : null}
              {can('invoices:void') && ['OPEN', 'DUNNING', 'UNPAID'].includes(data.status) ? (
                <button type="button" onClick={() => action.mutate('void')} disabled={action.isPending}>
                  Void
                </button>
              ) : null}
            </div>
            {can('invoices:pay') && ['OPEN', 'DUNNING', 'UNPAID'].includes(data.status) ? (
              <form
                className="inline"
                onSubmit={(event: FormEvent) => {
                  event.preventDefault();
                  action.mutate('pay');
                }}
              >
                <label htmlFor="pay-instrument">Payment instrument id</label>
                <input id="pay-instrument" required value={instrument} onChange={(e) => setInstrument(e.target.value)} />
                <button type="submit" disabled={action.isPending}>
                  Pay
                </button>
              </form>
            ) : null}
            {can('invoices:refund') && data.status === 'PAID' ? (
              <form
                className="inline"
                onSubmit={(event: FormEvent) => {
                  event.preventDefault();
                  action.mutate('refund');
                }}
              >
                <label htmlFor="refund-amount">Refund amount in minor units (empty: all)</label>
                <input id="refund-amount" type="number" min={1} value={refundAmount} onChange={(e) => setRefundAmount(e.target.value)} />
                <label htmlFor="refund-reason">Reason</label>
                <input id="refund-reason" value={refundReason} onChange={(e) => setRefundReason(e.target.value)} />
                <button type="submit" disabled={action.isPending}>
                  Refund
                </button>
              </form>
            ) : null}
            <ErrorMessage error={action.error} />
          </section>
        </>
      ) : null}
    </>
  );
}
