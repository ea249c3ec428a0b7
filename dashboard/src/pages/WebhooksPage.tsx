import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { WebhookEndpoint } from '../api/types';
import { v2, type Page } from '../api/v2';
import { useChannelName } from '../components/channels';
import { ErrorMessage } from '../components/ErrorMessage';
import { WEBHOOK_EVENT_TYPES } from '../components/eventTypes';
import { dateTime } from '../components/format';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';
import { Link, useNavigate } from 'react-router';
import { useCan } from '../session';
import { EnumText } from '../components/EnumText';

export const WEBHOOKS_KEY = ['webhooks'] as const;

export function WebhooksPage() {
  const can = useCan();
  const channelName = useChannelName();
  const paged = usePaged<WebhookEndpoint>(WEBHOOKS_KEY, async (token) => {
    const page = await v2<Page<WebhookEndpoint>>('/v2/webhooks/list', { pagination: { page_size: 20, ...(token ? { next_page_token: token } : {}) } });
    return { items: page.items, next: page.pagination.next_page_token || undefined };
  });
  return (
    <>
      <PageHeading title="Webhooks">Webhooks</PageHeading>
      <p>Endpoints receive the account's events. A new endpoint is inactive until you activate it.</p>
      <PagedTable
        caption="Webhook endpoints"
        paged={paged}
        rowKey={(endpoint) => endpoint.id}
        empty="No endpoints yet."
        columns={[
          { header: 'URL', cell: (endpoint) => <Link to={`/developers/webhooks/${endpoint.id}`}>{endpoint.url}</Link> },
          {
            header: 'Status',
            cell: (endpoint) => (
              <>
                <EnumText code={endpoint.status} />
                {endpoint.disabled_reason ? ` (${endpoint.disabled_reason})` : ''}
              </>
            ),
          },
          { header: 'Events', cell: (endpoint) => endpoint.event_types.join(', ') || 'none' },
          { header: 'Channel', cell: (endpoint) => (endpoint.channel_id ? channelName(endpoint.channel_id) : 'All channels') },
          { header: 'Created', cell: (endpoint) => dateTime(endpoint.created_at) },
        ]}
      />
      {can('webhooks:create') ? <CreateEndpoint /> : null}
    </>
  );
}

function CreateEndpoint() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: () =>
      v2<WebhookEndpoint>('/v2/webhooks/create', { url, event_types: events, ...(description ? { description } : {}) }),
    onSuccess: async (endpoint) => {
      await client.invalidateQueries({ queryKey: WEBHOOKS_KEY });
      navigate(`/developers/webhooks/${endpoint.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <section aria-labelledby="create-endpoint">
      <h2 id="create-endpoint">Add an endpoint</h2>
      <form onSubmit={submit}>
        <label htmlFor="endpoint-url">URL</label>
        <input id="endpoint-url" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />
        <label htmlFor="endpoint-description">Description (optional)</label>
        <input id="endpoint-description" value={description} onChange={(e) => setDescription(e.target.value)} />
        <EventTypePicker selected={events} onChange={setEvents} />
        <button type="submit" disabled={create.isPending}>
          Add endpoint
        </button>
        <ErrorMessage error={create.error} />
      </form>
    </section>
  );
}

export function EventTypePicker({ selected, onChange }: { selected: string[]; onChange: (next: string[]) => void }) {
  return (
    <fieldset>
      <legend>Event types</legend>
      <div className="permission-grid">
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="check">
            <input
              type="checkbox"
              checked={selected.includes(type)}
              onChange={(e) => onChange(e.target.checked ? [...selected, type] : selected.filter((item) => item !== type))}
            />
            {type}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
