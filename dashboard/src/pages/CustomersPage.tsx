import { useState, type FormEvent } from 'react';
import type { Customer } from '../api/types';
import { v2, type Page } from '../api/v2';
import { customerName } from '../components/customerName';
import { dateTime } from '../components/format';
import { listBody, pageOf } from '../components/listBody';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';
import { Link, navigate } from '../router';

type SearchBy = 'email' | 'merchant_customer_id' | 'id';

export function CustomersPage() {
  const [by, setBy] = useState<SearchBy>('email');
  const [text, setText] = useState('');
  const [search, setSearch] = useState<{ by: SearchBy; text: string }>({ by: 'email', text: '' });
  const paged = usePaged<Customer>(['customers', search], async (token) => {
    const value = search.text.trim();
    const filters =
      value === ''
        ? {}
        : search.by === 'email'
          ? { email: { operator: 'CONTAINS', value } }
          : { merchant_customer_id: { operator: 'EQ', value } };
    return pageOf(await v2<Page<Customer>>('/v2/customers/list', listBody(token, filters)));
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (by === 'id' && text.trim() !== '') navigate(`/customers/${encodeURIComponent(text.trim())}`);
    else setSearch({ by, text });
  };
  return (
    <>
      <PageHeading title="Customers">Customers</PageHeading>
      <form role="search" onSubmit={submit} className="inline">
        <label htmlFor="customer-search-by">Search by</label>
        <select id="customer-search-by" value={by} onChange={(e) => setBy(e.target.value as SearchBy)}>
          <option value="email">E-mail (contains)</option>
          <option value="merchant_customer_id">Your customer id</option>
          <option value="id">Customer id</option>
        </select>
        <label htmlFor="customer-search">Search text</label>
        <input id="customer-search" type="search" value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit">Search</button>
      </form>
      <PagedTable
        caption="Customers"
        paged={paged}
        rowKey={(customer) => customer.id}
        empty="No customer matches."
        columns={[
          { header: 'Name', cell: (customer) => <Link to={`/customers/${customer.id}`}>{customerName(customer)}</Link> },
          { header: 'E-mail', cell: (customer) => customer.email },
          { header: 'Status', cell: (customer) => customer.status },
          { header: 'Id', cell: (customer) => customer.id },
          { header: 'Created', cell: (customer) => dateTime(customer.created_at) },
        ]}
      />
    </>
  );
}
