import type { MonthlyStatement } from '../api/types';
import { v2, type Page } from '../api/v2';
import { FileLinks } from '../components/FileLinks';
import { dateTime } from '../components/format';
import { listBody, pageOf } from '../components/listBody';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';

export function MonthlyStatementsPage() {
  const paged = usePaged<MonthlyStatement>(['monthly-statements'], async (token) =>
    pageOf(await v2<Page<MonthlyStatement>>('/v2/monthly-statements/list', listBody(token))),
  );
  return (
    <>
      <PageHeading title="Monthly statements">Monthly statements</PageHeading>
      <p className="hint">Each statement’s CSV can be downloaded once the provider uploaded it; links are valid for 15 minutes.</p>
      <PagedTable
        caption="Monthly statements"
        paged={paged}
        rowKey={(row) => row.id}
        empty="No statements yet."
        columns={[
          { header: 'Period', cell: (row) => `${dateTime(row.period_from)} – ${dateTime(row.period_to)}` },
          { header: 'Legal entity', cell: (row) => row.legal_entity_id },
          { header: 'Currency', cell: (row) => row.currency ?? '—' },
          { header: 'Provider', cell: (row) => `${row.provider} ${row.provider_statement_id ?? ''}` },
          { header: 'Uploaded', cell: (row) => dateTime(row.uploaded_at) },
          { header: 'File', cell: (row) => <FileLinks files={row.files} label={row.id} /> },
        ]}
      />
    </>
  );
}
