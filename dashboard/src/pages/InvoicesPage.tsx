import { useState, type FormEvent } from 'react';
import type { Invoice } from '../api/types';
import { v2, type Page } from '../api/v2';
import { customerName } from '../components/customerName';
import { dateTime, money } from '../components/format';
import { listBody, pageOf, rangeFilter } from '../components/listBody';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';
import { Link } from 'react-router';
import { enumLabel } from '../components/enumLabel';
import { EnumText } from '../components/EnumText';

export const INVOICE_STATUSES = ['DRAFT', 'OPEN', 'PAID', 'VOIDED', 'DUNNING', 'UNPAID'];

export function InvoicesPage() {
  const [status, setStatus] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [filters, setFilters] = useState({ status: '', from: '', to: '' });
  const paged = usePaged<Invoice>(['invoices', filters], async (token) =>
    pageOf(
      await v2<Page<Invoice>>(
        '/v2/invoices/list',
        listBody(token, {
          status: filters.status ? { operator: 'EQ', value: filters.status } : undefined,
          created_at: rangeFilter(filters.from, filters.to),
        }),
      ),
    ),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ status, from, to });
  };
  return (
    <>
      <PageHeading title="Invoices">Invoices</PageHeading>
      <form onSubmit={submit} className="inline" aria-label="Filter invoices">
        <label htmlFor="invoice-status">Status</label>
        <select id="invoice-status" value={status} onChange={(e) => setStatus(e.target.value)}>
          <option value="">Any</option>
          {INVOICE_STATUSES.map((value) => (
            <option key={value} value={value}>
              {enumLabel(value)}
            </option>
          ))}
        </select>
        <label htmlFor="invoice-from">Created from</label>
        <input id="invoice-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        <label htmlFor="invoice-to">to</label>
        <input id="invoice-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        <button type="submit">Filter</button>
      </form>
      <PagedTable
        caption="Invoices"
        paged={paged}
        rowKey={(row) => row.id}
        empty="No invoice matches."
        columns={[
          { header: 'Invoice', cell: (row) => <Link to={`/invoices/${row.id}`}>{row.id}</Link> },
          { header: 'Customer', cell: (row) => `${customerName(row.customer)} ${row.customer.email ?? ''}` },
          { header: 'Status', cell: (row) => <EnumText code={row.status} /> },
          { header: 'Total', cell: (row) => money(row.total_amount, row.currency) },
          { header: 'Due', cell: (row) => dateTime(row.due_at) },
          { header: 'Created', cell: (row) => dateTime(row.created_at) },
        ]}
      />
    </>
  );
}
