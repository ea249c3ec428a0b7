import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useIdempotencyKey } from '../api/idempotency';
import type { Aggregation, Meter } from '../api/types';
import { v2, type Page } from '../api/v2';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime } from '../components/format';
import { listBody, pageOf } from '../components/listBody';
import { AGGREGATION_NAMES, definitionOf, draftOf, MeterDefinitionFields } from '../components/MeterDefinitionFields';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';
import { Link, useNavigate } from 'react-router';
import { useCan } from '../session';
import { EnumText } from '../components/EnumText';

export const METERS_KEY = ['meters'] as const;

type StatusFilter = '' | Meter['status'];

export function MetersPage() {
  const can = useCan();
  const [status, setStatus] = useState<StatusFilter>('');
  const paged = usePaged<Meter>([...METERS_KEY, status], async (token) =>
    pageOf(await v2<Page<Meter>>('/v2/meters/list', listBody(token, { status: status ? { operator: 'EQ', value: status } : undefined }))),
  );
  return (
    <>
      <PageHeading title="Meters">Meters</PageHeading>
      <p>
        A meter measures the usage events of one event name for each customer; usage prices bill what it measures. A change to its property, filters or
        group-by is a new version from a stated moment, never reaching back into time already measured.
      </p>
      <form className="inline" onSubmit={(event: FormEvent) => event.preventDefault()}>
        <label htmlFor="meter-status-filter">Status</label>
        <select id="meter-status-filter" value={status} onChange={(e) => setStatus(e.target.value as StatusFilter)}>
          <option value="">Any</option>
          <option value="ACTIVE">Active</option>
          <option value="ARCHIVED">Archived</option>
        </select>
      </form>
      <PagedTable
        caption="Meters, newest first"
        paged={paged}
        rowKey={(meter) => meter.id}
        empty="No meters."
        columns={[
          { header: 'Name', cell: (meter) => <Link to={`/meters/${meter.id}`}>{meter.name}</Link> },
          { header: 'Event name', cell: (meter) => <code>{meter.event_name}</code> },
          { header: 'Aggregation', cell: (meter) => (meter.property ? `${AGGREGATION_NAMES[meter.aggregation]}: ${meter.property}` : AGGREGATION_NAMES[meter.aggregation]) },
          { header: 'Version', cell: (meter) => meter.version },
          { header: 'Status', cell: (meter) => <EnumText code={meter.status} /> },
          { header: 'Created', cell: (meter) => dateTime(meter.created_at) },
        ]}
      />
      {can('meters:create') ? <CreateMeter /> : null}
    </>
  );
}

function CreateMeter() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [eventName, setEventName] = useState('');
  const [aggregation, setAggregation] = useState<Aggregation>('COUNT');
  const [draft, setDraft] = useState(() => draftOf(undefined));
  const idempotency = useIdempotencyKey();
  const create = useMutation({
    mutationFn: () => {
      const body = { name, event_name: eventName, aggregation, ...definitionOf(draft, aggregation) };
      return v2<Meter>('/v2/meters/create', body, { idempotencyKey: idempotency.keyFor(body) });
    },
    onSuccess: async (meter) => {
      idempotency.done();
      await client.invalidateQueries({ queryKey: METERS_KEY });
      navigate(`/meters/${meter.id}`);
    },
  });
  return (
    <section aria-labelledby="create-meter">
      <h2 id="create-meter">Create a meter</h2>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <label htmlFor="meter-name">Name</label>
        <input id="meter-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
        <label htmlFor="meter-event-name">Event name (the event_name of the usage events it measures)</label>
        <input id="meter-event-name" required maxLength={100} value={eventName} onChange={(e) => setEventName(e.target.value)} />
        <label htmlFor="meter-aggregation">Aggregation (fixed once created)</label>
        <select id="meter-aggregation" value={aggregation} onChange={(e) => setAggregation(e.target.value as Aggregation)}>
          {Object.entries(AGGREGATION_NAMES).map(([value, words]) => (
            <option key={value} value={value}>
              {words}
            </option>
          ))}
        </select>
        <MeterDefinitionFields prefix="meter" aggregation={aggregation} draft={draft} onChange={setDraft} />
        <p className="hint">It measures the events accepted from now on.</p>
        <button type="submit" disabled={create.isPending}>
          Create meter
        </button>
        <ErrorMessage error={create.error} />
      </form>
    </section>
  );
}
