import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Report } from '../api/types';
import { v2, v2FileLink, type Page } from '../api/v2';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime } from '../components/format';
import { listBody, pageOf } from '../components/listBody';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';
import { useCan } from '../session';
import { EnumText } from '../components/EnumText';

export function ReportsPage() {
  const can = useCan();
  const client = useQueryClient();
  const paged = usePaged<Report>(['reports'], async (token) => pageOf(await v2<Page<Report>>('/v2/reports/list', listBody(token))));
  const [type, setType] = useState('INVOICES');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const create = useMutation({
    mutationFn: () => v2<Report>('/v2/reports/create', { report_type: type, date_from: from, date_to: to }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['reports'] }),
  });
  const download = useMutation({
    mutationFn: (id: string) => v2FileLink('/v2/reports/download', { id }),
    onSuccess: (link) => window.location.assign(link),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <>
      <PageHeading title="Reports">Reports</PageHeading>
      {can('reports:create') ? (
        <section aria-labelledby="create-report">
          <h2 id="create-report">Create a report</h2>
          <form onSubmit={submit} className="inline">
            <label htmlFor="report-type">Type</label>
            <select id="report-type" value={type} onChange={(e) => setType(e.target.value)}>
              <option value="INVOICES">Invoices</option>
              <option value="SUBSCRIPTIONS">Subscriptions</option>
            </select>
            <label htmlFor="report-from">From</label>
            <input id="report-from" type="date" required value={from} onChange={(e) => setFrom(e.target.value)} />
            <label htmlFor="report-to">Until (not included)</label>
            <input id="report-to" type="date" required value={to} onChange={(e) => setTo(e.target.value)} />
            <button type="submit" disabled={create.isPending}>
              Create report
            </button>
          </form>
          <ErrorMessage error={create.error} />
        </section>
      ) : null}
      <button type="button" onClick={paged.refetch}>
        Refresh progress
      </button>
      <ErrorMessage error={download.error} />
      <PagedTable
        caption="Reports"
        paged={paged}
        rowKey={(row) => row.id}
        empty="No reports yet."
        columns={[
          { header: 'Type', cell: (row) => <EnumText code={row.report_type} /> },
          { header: 'Period', cell: (row) => `${dateTime(row.date_from)} – ${dateTime(row.date_to)}` },
          {
            header: 'Progress',
            cell: (row) => (
              <>
                <EnumText code={row.status} />
                {row.failure_reason ? `: ${row.failure_reason}` : ''}
              </>
            ),
          },
          { header: 'Rows', cell: (row) => row.row_count ?? '—' },
          { header: 'Expires', cell: (row) => dateTime(row.expires_at) },
          {
            header: 'File',
            cell: (row) =>
              row.status === 'SUCCEEDED' ? (
                <button type="button" onClick={() => download.mutate(row.id)} aria-label={`Download report ${row.id}`}>
                  Download
                </button>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </>
  );
}
