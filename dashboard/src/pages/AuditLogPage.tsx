import { useState, type FormEvent } from 'react';
import { sessionCall, type AuditEntry, type CursorPage } from '../api/session';
import { dateTime } from '../components/format';
import { dayEnd, dayStart } from '../components/listBody';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';
import { Link } from 'react-router';

/** A customer acting in the customer portal is named as one (by id when they have no e-mail) and links to their page. */
function who(entry: AuditEntry) {
  if (entry.actor_type !== 'CUSTOMER') return entry.user_email;
  return <Link to={`/customers/${encodeURIComponent(entry.user_id)}`}>Customer {entry.user_email || entry.user_id}</Link>;
}

export function AuditLogPage() {
  const [action, setAction] = useState('');
  const [objectId, setObjectId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const paged = usePaged<AuditEntry>(['audit-log', filters], async (cursor) => {
    const page = await sessionCall<CursorPage<AuditEntry>>('audit-log/list', { limit: 20, ...filters, ...(cursor ? { cursor } : {}) });
    return { items: page.data, next: page.next_cursor ?? undefined };
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFilters({
      ...(action ? { action } : {}),
      ...(objectId ? { object_id: objectId } : {}),
      ...(from || to ? { created_at: { ...(from ? { from: dayStart(from) } : {}), ...(to ? { to: dayEnd(to) } : {}) } } : {}),
    });
  };
  return (
    <>
      <PageHeading title="Audit log">Audit log</PageHeading>
      <form onSubmit={submit} className="inline" aria-label="Filter the audit log">
        <label htmlFor="audit-action">Action</label>
        <input id="audit-action" placeholder="invoices/void" value={action} onChange={(e) => setAction(e.target.value)} />
        <label htmlFor="audit-object">Object id</label>
        <input id="audit-object" value={objectId} onChange={(e) => setObjectId(e.target.value)} />
        <label htmlFor="audit-from">From</label>
        <input id="audit-from" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
        <label htmlFor="audit-to">To</label>
        <input id="audit-to" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
        <button type="submit">Filter</button>
      </form>
      <PagedTable
        caption="Audit log"
        paged={paged}
        rowKey={(entry) => entry.id}
        empty="Nothing recorded."
        columns={[
          { header: 'When', cell: (entry) => dateTime(entry.created_at) },
          { header: 'Who', cell: who },
          { header: 'What', cell: (entry) => entry.action },
          { header: 'Object', cell: (entry) => entry.object_id ?? '—' },
          { header: 'From', cell: (entry) => `${entry.ip ?? ''} ${entry.user_agent ?? ''}` },
        ]}
      />
    </>
  );
}
