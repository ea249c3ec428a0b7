import { useQuery } from '@tanstack/react-query';
import type { Customer, Invoice, PaymentInstrument, Subscription } from '../api/types';
import { v2, type Page } from '../api/v2';
import { customerName } from '../components/customerName';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime, money } from '../components/format';
import { listBody, pageOf } from '../components/listBody';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';
import { Link } from '../router';

export function CustomerDetailPage({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const customer = useQuery({ queryKey: ['customers', id], queryFn: () => v2<Customer>('/v2/customers/get', { id }) });
  const instruments = usePaged<PaymentInstrument>(['customers', id, 'instruments'], async (token) =>
    pageOf(await v2<Page<PaymentInstrument>>('/v2/payment-instruments/list', listBody(token, {}, { customer_id: id }))),
  );
  const invoices = usePaged<Invoice>(['customers', id, 'invoices'], async (token) =>
    pageOf(await v2<Page<Invoice>>('/v2/invoices/list', listBody(token, { customer_id: { operator: 'EQ', value: id } }))),
  );
  const subscriptions = usePaged<Subscription>(['customers', id, 'subscriptions'], async (token) =>
    pageOf(await v2<Page<Subscription>>('/v2/subscriptions/list', listBody(token, { customer_id: { operator: 'EQ', value: id } }))),
  );
  const data = customer.data;
  return (
    <>
      <p>
        <Link to="/customers">← All customers</Link>
      </p>
      <PageHeading title="Customer">Customer {data ? customerName(data) : ''}</PageHeading>
      <ErrorMessage error={customer.error} />
      {data ? (
        <dl className="facts">
          <dt>Name</dt>
          <dd data-testid="customer-name">{customerName(data)}</dd>
          <dt>E-mail</dt>
          <dd>{data.email}</dd>
          <dt>Status</dt>
          <dd>{data.status}</dd>
          <dt>Id</dt>
          <dd>{data.id}</dd>
          <dt>Your customer id</dt>
          <dd>{data.merchant_customer_id ?? '—'}</dd>
          <dt>Created</dt>
          <dd>{dateTime(data.created_at)}</dd>
        </dl>
      ) : null}
      <h2>Payment instruments</h2>
      <PagedTable
        caption="Payment instruments"
        paged={instruments}
        rowKey={(row) => row.id}
        empty="No payment instruments."
        columns={[
          { header: 'Card', cell: (row) => `${row.card.brand} ending ${row.card.last4}, expires ${row.card.exp_month}/${row.card.exp_year}` },
          { header: 'Status', cell: (row) => row.status },
          { header: 'Id', cell: (row) => row.id },
        ]}
      />
      <h2>Invoices</h2>
      <PagedTable
        caption="Invoices of this customer"
        paged={invoices}
        rowKey={(row) => row.id}
        empty="No invoices."
        columns={[
          { header: 'Invoice', cell: (row) => <Link to={`/invoices/${row.id}`}>{row.id}</Link> },
          { header: 'Status', cell: (row) => row.status },
          { header: 'Total', cell: (row) => money(row.total_amount, row.currency) },
          { header: 'Created', cell: (row) => dateTime(row.created_at) },
        ]}
      />
      <h2>Subscriptions</h2>
      <PagedTable
        caption="Subscriptions of this customer"
        paged={subscriptions}
        rowKey={(row) => row.id}
        empty="No subscriptions."
        columns={[
          { header: 'Subscription', cell: (row) => <Link to={`/subscriptions/${row.id}`}>{row.id}</Link> },
          { header: 'Status', cell: (row) => row.status },
          { header: 'Next billing', cell: (row) => dateTime(row.next_billing_at) },
        ]}
      />
    </>
  );
}
