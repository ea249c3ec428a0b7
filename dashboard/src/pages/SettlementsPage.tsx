import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Settlement } from '../api/types';
import { v2 } from '../api/v2';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime, money } from '../components/format';
import { PageHeading } from '../components/PageHeading';

/** The API serves settlements one at a time (`settlements/get`; section 2.6 has no list), so this page looks one up. */
export function SettlementsPage() {
  const [text, setText] = useState('');
  const [id, setId] = useState('');
  const settlement = useQuery({ queryKey: ['settlements', id], queryFn: () => v2<Settlement>('/v2/settlements/get', { id }), enabled: id !== '' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setId(text.trim());
  };
  const data = settlement.data;
  return (
    <>
      <PageHeading title="Settlements">Settlements</PageHeading>
      <p>Settlement ids arrive in the settlement webhooks and in the nightly files; open one here to get its files.</p>
      <form role="search" onSubmit={submit} className="inline">
        <label htmlFor="settlement-id">Settlement id</label>
        <input id="settlement-id" required value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit">Open</button>
      </form>
      <ErrorMessage error={settlement.error} />
      {data ? (
        <>
          <h2>Settlement {data.id}</h2>
          <dl className="facts">
            <dt>Amount</dt>
            <dd>{money(data.amount, data.currency)}</dd>
            <dt>Settlement date</dt>
            <dd>{data.settlement_date}</dd>
            <dt>Period</dt>
            <dd>
              {dateTime(data.period_from)} – {dateTime(data.period_to)}
            </dd>
            <dt>Provider</dt>
            <dd>
              {data.provider} {data.provider_settlement_id ?? ''}
            </dd>
            <dt>Legal entity</dt>
            <dd>{data.legal_entity_id}</dd>
          </dl>
          <h3>Files</h3>
          <ul>
            {data.files.map((file) => (
              <li key={file.type}>
                {file.download_url ? <a href={file.download_url}>{file.type} (CSV)</a> : `${file.type}: ${file.status}`}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}
