import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Subscription, SubscriptionStatusChange } from '../api/types';
import { v2, type Page } from '../api/v2';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime, money } from '../components/format';
import { listBody, pageOf } from '../components/listBody';
import { PageHeading } from '../components/PageHeading';
import { PagedTable, type Column } from '../components/PagedTable';
import { subscriptionWorkflowLink } from '../components/temporalUi';
import { usePaged } from '../components/usePaged';
import { Link } from 'react-router';
import { useCan } from '../session';
import { EnumText } from '../components/EnumText';

/** The recorded causes (docs/subscriptions.md, "Status history") in words. */
const CAUSES: Record<NonNullable<SubscriptionStatusChange['cause']>, string> = {
  CREATED: 'Created',
  STARTED: 'Start date reached, first invoice issued',
  TRIAL_STARTED: 'Trial started',
  TRIAL_ENDED: 'Trial ended',
  PAYMENT_SUCCEEDED: 'Invoice paid',
  PAYMENT_FAILED: 'Payment failed, dunning started',
  INVOICES_SETTLED: 'Nothing owed any more',
  ENDS_AT_REACHED: 'End date reached',
  RESTORED: 'Restored',
  CANCELLATION_REQUESTED: 'Cancellation requested',
  DUNNING_EXHAUSTED: 'Dunning exhausted',
  FRAUD_ALERT_RECEIVED: 'Fraud alert received',
  DISPUTE_RECEIVED: 'Dispute received',
};

const historyColumns: Column<SubscriptionStatusChange>[] = [
  { header: 'When', cell: (change) => dateTime(change.occurred_at) },
  { header: 'From', cell: (change) => (change.from_status ? <EnumText code={change.from_status} /> : '—') },
  { header: 'To', cell: (change) => <EnumText code={change.to_status} /> },
  { header: 'Cause', cell: (change) => (change.cause ? CAUSES[change.cause] : '—') },
];

export function SubscriptionDetailPage({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const can = useCan();
  const client = useQueryClient();
  const subscription = useQuery({ queryKey: ['subscriptions', id], queryFn: () => v2<Subscription>('/v2/subscriptions/get', { id }) });
  const history = usePaged<SubscriptionStatusChange>(['subscriptions', id, 'status-history'], async (token) =>
    pageOf(await v2<Page<SubscriptionStatusChange>>('/v2/subscriptions/list-status-history', listBody(token, {}, { id }))),
  );
  const [mode, setMode] = useState('PERIOD_END');
  const action = useMutation({
    mutationFn: (which: 'cancel' | 'delete-cancellation') =>
      which === 'cancel' ? v2('/v2/subscriptions/cancel', { id, mode }) : v2('/v2/subscriptions/delete-cancellation', { id }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['subscriptions'] }),
  });
  const data = subscription.data;
  const workflow = subscriptionWorkflowLink(id);
  const closed = data ? ['CANCELLED', 'EXPIRED'].includes(data.status) : true;
  return (
    <>
      <p>
        <Link to="/subscriptions">← All subscriptions</Link>
      </p>
      <PageHeading title="Subscription">Subscription {id}</PageHeading>
      <ErrorMessage error={subscription.error} />
      {data ? (
        <>
          <dl className="facts">
            <dt>Status</dt>
            <dd data-testid="subscription-status">
              <EnumText code={data.status} />
            </dd>
            <dt>Customer</dt>
            <dd>
              <Link to={`/customers/${data.customer_id}`}>{data.customer_id}</Link>
            </dd>
            <dt>Next billing</dt>
            <dd>{dateTime(data.next_billing_at)}</dd>
            <dt>Latest invoice</dt>
            <dd>{data.latest_invoice_id ? <Link to={`/invoices/${data.latest_invoice_id}`}>{data.latest_invoice_id}</Link> : '—'}</dd>
            <dt>Workflow</dt>
            <dd>{workflow ? <a href={workflow}>Open the lifecycle workflow in the Temporal UI</a> : 'No Temporal UI configured'}</dd>
          </dl>
          <table>
            <caption>Items</caption>
            <thead>
              <tr>
                <th scope="col">Product</th>
                <th scope="col">Quantity</th>
                <th scope="col">Amount</th>
              </tr>
            </thead>
            <tbody>
              {data.line_items.map((line) => (
                <tr key={line.id}>
                  <td>{line.product_info?.name ?? '—'}</td>
                  <td>{line.quantity}</td>
                  <td>{money(line.amount, line.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>Status history</h2>
          <PagedTable caption="Status changes, newest first" columns={historyColumns} paged={history} rowKey={(change) => change.id} empty="No status changes recorded." />
          <section aria-labelledby="subscription-actions">
            <h2 id="subscription-actions">Actions</h2>
            {can('subscriptions:cancel') && !closed && !data.cancellation_info ? (
              <form
                className="inline"
                onSubmit={(event: FormEvent) => {
                  event.preventDefault();
                  action.mutate('cancel');
                }}
              >
                <label htmlFor="cancel-mode">When</label>
                <select id="cancel-mode" value={mode} onChange={(e) => setMode(e.target.value)}>
                  <option value="PERIOD_END">At the end of the period</option>
                  <option value="IMMEDIATELY">Immediately</option>
                </select>
                <button type="submit" disabled={action.isPending}>
                  Cancel subscription
                </button>
              </form>
            ) : null}
            {can('subscriptions:delete-cancellation') && !closed && data.cancellation_info ? (
              <button type="button" onClick={() => action.mutate('delete-cancellation')} disabled={action.isPending}>
                Keep the subscription (un-schedule the cancellation)
              </button>
            ) : null}
            <ErrorMessage error={action.error} />
          </section>
        </>
      ) : null}
    </>
  );
}
