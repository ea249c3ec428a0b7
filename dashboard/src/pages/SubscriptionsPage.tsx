import { useState, type FormEvent } from 'react';
import type { Subscription } from '../api/types';
import { v2, type Page } from '../api/v2';
import { dateTime } from '../components/format';
import { listBody, pageOf } from '../components/listBody';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';
import { Link } from 'react-router';
import { enumLabel } from '../components/enumLabel';
import { EnumText } from '../components/EnumText';

const STATUSES = ['CREATED', 'PENDING', 'TRIALING', 'ACTIVE', 'REDEMPTION', 'UNPAID', 'CANCELLED', 'EXPIRED'];

export function SubscriptionsPage() {
  const [status, setStatus] = useState('');
  const [applied, setApplied] = useState('');
  const paged = usePaged<Subscription>(['subscriptions', applied], async (token) =>
    pageOf(await v2<Page<Subscription>>('/v2/subscriptions/list', listBody(token, { status: applied ? { operator: 'EQ', value: applied } : undefined }))),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setApplied(status);
  };
  return (
    <>
      <PageHeading title="Subscriptions">Subscriptions</PageHeading>
      <form onSubmit={submit} className="inline" aria-label="Filter subscriptions">
        <label htmlFor="subscription-status">Status</label>
        <select id="subscription-status" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">Any</option>
          {STATUSES.map((value) => (
            <option key={value} value={value}>
              {enumLabel(value)}
            </option>
          ))}
        </select>
        <button type="submit">Filter</button>
      </form>
      <PagedTable
        caption="Subscriptions"
        paged={paged}
        rowKey={(row) => row.id}
        empty="No subscription matches."
        columns={[
          { header: 'Subscription', cell: (row) => <Link to={`/subscriptions/${row.id}`}>{row.id}</Link> },
          { header: 'Customer', cell: (row) => <Link to={`/customers/${row.customer_id}`}>{row.customer_id}</Link> },
          { header: 'Status', cell: (row) => <EnumText code={row.status} /> },
          { header: 'Next billing', cell: (row) => dateTime(row.next_billing_at) },
          { header: 'Created', cell: (row) => dateTime(row.created_at) },
        ]}
      />
    </>
  );
}
