import { useState, type FormEvent } from 'react';
import type { Customer } from '../api/types';
import { v2, type Page } from '../api/v2';
import { customerName } from '../components/customerName';
import { dateTime } from '../components/format';
import { listBody, pageOf } from '../components/listBody';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';
import { Link, useNavigate } from 'react-router';

type SearchBy = 'any' | 'email' | 'name' | 'merchant_customer_id' | 'id';

/** "Any" reads the text: a `cust_` id opens that customer, an `@` searches e-mails, anything else names. */
function searchKind(by: SearchBy, text: string): Exclude<SearchBy, 'any'> {
  if (by !== 'any') return by;
  if (/^cust_\S+$/.test(text)) return 'id';
  return text.includes('@') ? 'email' : 'name';
}

function customerFilters(by: Exclude<SearchBy, 'any' | 'id'>, value: string) {
  switch (by) {
    case 'email':
      return { email: { operator: 'CONTAINS', value } };
    case 'name':
      return { name: { operator: 'STARTS_WITH', value } };
    case 'merchant_customer_id':
      return { merchant_customer_id: { operator: 'EQ', value } };
  }
}

export function CustomersPage() {
  const navigate = useNavigate();
  const [by, setBy] = useState<SearchBy>('any');
  const [text, setText] = useState('');
  const [search, setSearch] = useState<{ by: Exclude<SearchBy, 'any' | 'id'>; text: string } | undefined>(undefined);
  const paged = usePaged<Customer>(['customers', search], async (token) =>
    pageOf(await v2<Page<Customer>>('/v2/customers/list', listBody(token, search ? customerFilters(search.by, search.text) : {}))),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    const kind = searchKind(by, value);
    if (value === '') setSearch(undefined);
    else if (kind === 'id') navigate(`/customers/${encodeURIComponent(value)}`);
    else setSearch({ by: kind, text: value });
  };
  return (
    <>
      <PageHeading title="Customers">Customers</PageHeading>
      <form role="search" onSubmit={submit} className="inline">
        <label htmlFor="customer-search-by">Search by</label>
        <select id="customer-search-by" value={by} onChange={(e) => setBy(e.target.value as SearchBy)}>
          <option value="any">E-mail, name or customer id</option>
          <option value="email">E-mail (contains)</option>
          <option value="name">Name (starts with)</option>
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
