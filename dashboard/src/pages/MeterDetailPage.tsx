import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import type { Meter, MeterVersion } from '../api/types';
import { v2 } from '../api/v2';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime } from '../components/format';
import { AGGREGATION_NAMES, definitionOf, describeFilters, draftOf, MeterDefinitionFields } from '../components/MeterDefinitionFields';
import { PageHeading } from '../components/PageHeading';
import { useFocusOnMount } from '../components/useFocusOnMount';
import { Link } from 'react-router';
import { useCan } from '../session';
import { METERS_KEY } from './MetersPage';
import { EnumText } from '../components/EnumText';

/** A `datetime-local` value, read as UTC, in the API's form: `2026-12-01T09:30` → `2026-12-01T09:30:00.000000Z`. */
function utcDateTime(local: string): string {
  const [date, time = '00:00'] = local.split('T');
  return `${date}T${time.length === 5 ? `${time}:00` : time}.000000Z`;
}

/** Which version measures events timestamped now: the newest one already effective; later ones are scheduled. */
function versionState(versions: MeterVersion[], version: MeterVersion, now: number): string {
  const effective = versions.filter((v) => Date.parse(v.effective_from) <= now);
  const current = effective[effective.length - 1];
  if (version.version === current?.version) return 'In force';
  return Date.parse(version.effective_from) > now ? 'Scheduled' : 'Replaced';
}

export function MeterDetailPage({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const can = useCan();
  const [archiving, setArchiving] = useState(false);
  const meter = useQuery({ queryKey: [...METERS_KEY, id], queryFn: () => v2<Meter>('/v2/meters/get', { id }) });
  const data = meter.data;
  const active = data?.status === 'ACTIVE';
  const now = Date.now();
  return (
    <>
      <p>
        <Link to="/meters">← All meters</Link>
      </p>
      <PageHeading title="Meter">Meter {data?.name ?? ''}</PageHeading>
      <ErrorMessage error={meter.error} />
      {data ? (
        <>
          <dl className="facts">
            <dt>Id</dt>
            <dd>{data.id}</dd>
            <dt>Event name</dt>
            <dd>
              <code>{data.event_name}</code>
            </dd>
            <dt>Aggregation</dt>
            <dd>{AGGREGATION_NAMES[data.aggregation]}</dd>
            <dt>Status</dt>
            <dd data-testid="meter-status">
              <EnumText code={data.status} />
            </dd>
            {data.archived_at ? (
              <>
                <dt>Archived</dt>
                <dd>{dateTime(data.archived_at)}</dd>
              </>
            ) : null}
            <dt>Created</dt>
            <dd>{dateTime(data.created_at)}</dd>
            <dt>Updated</dt>
            <dd>{dateTime(data.updated_at)}</dd>
          </dl>
          <table>
            <caption>Versions: each measures the events timestamped from its effective time until the next one’s</caption>
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Effective from</th>
                <th scope="col">Property</th>
                <th scope="col">Filters</th>
                <th scope="col">Group by</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {data.versions.map((version) => (
                <tr key={version.version}>
                  <td>{version.version}</td>
                  <td>{version.version === 1 ? 'Every timestamp' : dateTime(version.effective_from)}</td>
                  <td>{version.property ?? '—'}</td>
                  <td>{describeFilters(version.filters)}</td>
                  <td>{version.group_by.join(', ') || 'none'}</td>
                  <td>{versionState(data.versions, version, now)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {active && can('meters:update') ? (
            <>
              <RenameMeter meter={data} />
              <NewVersion key={data.version} meter={data} />
            </>
          ) : null}
          {active && can('meters:archive') ? (
            archiving ? (
              <ArchiveMeter meter={data} onDone={() => setArchiving(false)} />
            ) : (
              <section aria-labelledby="archive-heading">
                <h2 id="archive-heading">Archive</h2>
                <p className="hint">An archived meter measures no new events; what it measured stays readable.</p>
                <button type="button" className="danger" onClick={() => setArchiving(true)}>
                  Archive meter
                </button>
              </section>
            )
          ) : null}
        </>
      ) : null}
    </>
  );
}

/** After a change: the meter as answered, the lists read again. */
function useMeterSaved(then?: () => void) {
  const client = useQueryClient();
  return (changed: Meter) => {
    client.setQueryData([...METERS_KEY, changed.id], changed);
    void client.invalidateQueries({ queryKey: METERS_KEY, predicate: (query) => query.queryKey[1] !== changed.id });
    then?.();
  };
}

function RenameMeter({ meter }: { meter: Meter }) {
  const [name, setName] = useState(meter.name);
  const saved = useMeterSaved();
  const rename = useMutation({ mutationFn: () => v2<Meter>('/v2/meters/update', { id: meter.id, name }), onSuccess: saved });
  return (
    <form
      className="inline"
      aria-labelledby="rename-meter"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        rename.mutate();
      }}
    >
      <h2 id="rename-meter">Rename</h2>
      <label htmlFor="rename-meter-name">Name</label>
      <input id="rename-meter-name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
      <button type="submit" disabled={rename.isPending || name === meter.name}>
        Rename
      </button>
      <ErrorMessage error={rename.error} />
    </form>
  );
}

/** Starts from the newest version's definition; the server makes no version when nothing changed. */
function NewVersion({ meter }: { meter: Meter }) {
  const [draft, setDraft] = useState(() => draftOf(meter));
  const [effectiveFrom, setEffectiveFrom] = useState('');
  const saved = useMeterSaved();
  const change = useMutation({
    mutationFn: () =>
      v2<Meter>('/v2/meters/update', { id: meter.id, ...definitionOf(draft, meter.aggregation), ...(effectiveFrom ? { effective_from: utcDateTime(effectiveFrom) } : {}) }),
    onSuccess: saved,
  });
  return (
    <section aria-labelledby="new-version">
      <h2 id="new-version">New version</h2>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          change.mutate();
        }}
      >
        <MeterDefinitionFields prefix="version" aggregation={meter.aggregation} draft={draft} onChange={setDraft} />
        <label htmlFor="version-effective-from">Effective from (UTC; empty: in 5 minutes, the earliest a change may take effect)</label>
        <input id="version-effective-from" type="datetime-local" step={1} value={effectiveFrom} onChange={(e) => setEffectiveFrom(e.target.value)} />
        <button type="submit" disabled={change.isPending}>
          Save new version
        </button>
        <ErrorMessage error={change.error} />
      </form>
    </section>
  );
}

/**
 * Archiving cannot be undone: focus moves to the confirmation's heading, the first Tab reaches
 * "Archive meter", Escape or "Cancel" closes it with nothing changed.
 */
function ArchiveMeter({ meter, onDone }: { meter: Meter; onDone: () => void }) {
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const saved = useMeterSaved(onDone);
  const archive = useMutation({ mutationFn: () => v2<Meter>('/v2/meters/archive', { id: meter.id }), onSuccess: saved });
  return (
    <section
      aria-labelledby="archive-meter"
      className="panel"
      role="alertdialog"
      aria-describedby="archive-meter-warning"
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'Escape') onDone();
      }}
    >
      <h2 id="archive-meter" tabIndex={-1} ref={headingRef}>
        Archive {meter.name}?
      </h2>
      <p id="archive-meter-warning">
        Events accepted from now on are not measured by it, for good. Refused while a subscription that is not cancelled or expired bills a usage price of
        this meter.
      </p>
      <button type="button" className="danger" onClick={() => archive.mutate()} disabled={archive.isPending}>
        Archive meter
      </button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
      <ErrorMessage error={archive.error} />
    </section>
  );
}
