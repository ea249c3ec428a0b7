import { useState, type FormEvent } from 'react';
import type { Settlement } from '../api/types';
import { v2, type Page } from '../api/v2';
import { FileLinks } from '../components/FileLinks';
import { money } from '../components/format';
import { listBody, pageOf } from '../components/listBody';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';

/** `settlements/list` (an extension, docs/settlements.md), newest first, with each settlement's file links. */
export function SettlementsPage() {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [currency, setCurrency] = useState('');
  const [filters, setFilters] = useState({ from: '', to: '', currency: '' });
  const paged = usePaged<Settlement>(['settlements', filters], async (token) =>
    pageOf(
      await v2<Page<Settlement>>(
        '/v2/settlements/list',
        listBody(token, {
          settlement_date:
            filters.from || filters.to
              ? { operator: 'RANGE', value: { ...(filters.from ? { from: filters.from } : {}), ...(filters.to ? { to: filters.to } : {}) } }
              : undefined,
          currency: filters.currency ? { operator: 'EQ', value: filters.currency } : undefined,
        }),
      ),
    ),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ from, to, currency: currency.trim().toUpperCase() });
  };
  return (
    <>
      <PageHeading title="Settlements">Settlements</PageHeading>
      <p className="hint">What each provider paid out per legal entity, currency and day; file links are valid for 15 minutes.</p>
      <form onSubmit={submit} className="inline" aria-label="Filter settlements">
        <label htmlFor="settlement-from">Settled from</label>
        <input id="settlement-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        <label htmlFor="settlement-to">to</label>
        <input id="settlement-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        <label htmlFor="settlement-currency">Currency</label>
        <input id="settlement-currency" value={currency} maxLength={3} placeholder="EUR" onChange={(e) => setCurrency(e.target.value)} />
        <button type="submit">Filter</button>
      </form>
      <PagedTable
        caption="Settlements"
        paged={paged}
        rowKey={(row) => row.id}
        empty="No settlement matches."
        columns={[
          { header: 'Settlement date', cell: (row) => row.settlement_date },
          { header: 'Amount', cell: (row) => money(row.amount, row.currency) },
          { header: 'Period', cell: (row) => (row.period_from === row.period_to ? (row.period_from ?? '—') : `${row.period_from ?? '—'} – ${row.period_to ?? '—'}`) },
          { header: 'Legal entity', cell: (row) => row.legal_entity_id },
          { header: 'Provider', cell: (row) => `${row.provider} ${row.provider_settlement_id ?? ''}` },
          { header: 'Files', cell: (row) => <FileLinks files={row.files} label={row.id} /> },
          { header: 'Id', cell: (row) => row.id },
        ]}
      />
    </>
  );
}
