import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Subscription } from '../api/types';
import { v2 } from '../api/v2';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime, money } from '../components/format';
import { PageHeading } from '../components/PageHeading';
import { subscriptionWorkflowLink } from '../components/temporalUi';
import { Link } from '../router';
import { useCan } from '../session';

/** What the subscription's own dates say happened, oldest first. */
function timeline(subscription: Subscription): { at: string; what: string }[] {
  const entries: { at: string | undefined; what: string }[] = [
    { at: subscription.created_at, what: 'Created' },
    { at: subscription.start_scheduled_at, what: 'Start scheduled' },
    { at: subscription.trial_info?.period.start_at, what: `Trial (${subscription.trial_info?.type ?? ''}) started` },
    { at: subscription.trial_info?.period.end_at, what: 'Trial ends' },
    { at: subscription.started_at, what: 'Started' },
    { at: subscription.cancellation_info?.requested_at, what: `Cancellation requested (${subscription.cancellation_info?.reason ?? ''}, ${subscription.cancellation_info?.mode ?? ''})` },
    { at: subscription.cancellation_info?.cancel_at, what: 'Cancels' },
    { at: subscription.ends_at, what: 'Ends' },
    { at: subscription.updated_at, what: `Last change: now ${subscription.status}` },
  ];
  return entries.filter((entry): entry is { at: string; what: string } => Boolean(entry.at)).sort((a, b) => a.at.localeCompare(b.at));
}

export function SubscriptionDetailPage({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const can = useCan();
  const client = useQueryClient();
  const subscription = useQuery({ queryKey: ['subscriptions', id], queryFn: () => v2<Subscription>('/v2/subscriptions/get', { id }) });
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
            <dd data-testid="subscription-status">{data.status}</dd>
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
          <ol className="timeline">
            {timeline(data).map((entry) => (
              <li key={`${entry.at}-${entry.what}`}>
                {dateTime(entry.at)}: {entry.what}
              </li>
            ))}
          </ol>
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
