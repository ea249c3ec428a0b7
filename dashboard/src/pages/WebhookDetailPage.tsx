import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Delivery, WebhookEndpoint } from '../api/types';
import { v2, type Page } from '../api/v2';
import { CopyButton } from '../components/CopyButton';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime } from '../components/format';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';
import { Link } from 'react-router';
import { useCan } from '../session';
import { EventTypePicker, WEBHOOKS_KEY } from './WebhooksPage';
import { EnumText } from '../components/EnumText';

export function WebhookDetailPage({ params }: { params: Record<string, string> }) {
  const id = params.id!;
  const can = useCan();
  const client = useQueryClient();
  const endpoint = useQuery({ queryKey: [...WEBHOOKS_KEY, id], queryFn: () => v2<WebhookEndpoint>('/v2/webhooks/get', { id }) });
  const refresh = () => client.invalidateQueries({ queryKey: WEBHOOKS_KEY });
  const patch = useMutation({ mutationFn: (body: Record<string, unknown>) => v2<WebhookEndpoint>('/v2/webhooks/patch', { id, ...body }), onSuccess: refresh });
  const [secret, setSecret] = useState<string | null>(null);
  const [period, setPeriod] = useState('86400');
  const rotate = useMutation({
    mutationFn: () => v2<WebhookEndpoint & { rotate_secret: string }>('/v2/webhooks/rotate-key', { id, rotation_period: Number(period) }),
    onSuccess: async (rotated) => {
      setSecret(rotated.rotate_secret);
      await refresh();
    },
  });
  const [editing, setEditing] = useState<string[] | null>(null);
  const sendTest = useMutation({
    mutationFn: () => v2<Delivery>('/v2/webhooks/send-test-event', { id }),
    onSuccess: refresh,
  });
  const data = endpoint.data;
  return (
    <>
      <p>
        <Link to="/developers/webhooks">← All endpoints</Link>
      </p>
      <PageHeading title="Webhook endpoint">Webhook endpoint</PageHeading>
      <ErrorMessage error={endpoint.error} />
      {data ? (
        <>
          <dl className="facts">
            <dt>URL</dt>
            <dd>{data.url}</dd>
            <dt>Status</dt>
            <dd data-testid="endpoint-status">
              <EnumText code={data.status} />
            </dd>
            {data.disabled_reason ? (
              <>
                <dt>Disabled because</dt>
                <dd>{data.disabled_reason}</dd>
              </>
            ) : null}
            <dt>Event types</dt>
            <dd>{data.event_types.join(', ') || 'none'}</dd>
            <dt>Secret rotation</dt>
            <dd>{data.rotate_at ? `previous secret valid until ${dateTime(data.rotate_at)}` : 'none in progress'}</dd>
          </dl>
          {can('webhooks:patch') ? (
            <div className="actions">
              {data.status === 'ACTIVE' ? (
                <button type="button" onClick={() => patch.mutate({ status: 'INACTIVE' })} disabled={patch.isPending}>
                  Deactivate
                </button>
              ) : (
                <button type="button" onClick={() => patch.mutate({ status: 'ACTIVE' })} disabled={patch.isPending}>
                  Activate
                </button>
              )}
              <button type="button" onClick={() => setEditing(data.event_types)}>
                Change event types
              </button>
            </div>
          ) : null}
          <ErrorMessage error={patch.error} />
          {can('webhooks:send-test-event') ? (
            <section aria-labelledby="test-event">
              <h2 id="test-event">Test event</h2>
              {data.status === 'ACTIVE' ? (
                <button type="button" onClick={() => sendTest.mutate()} disabled={sendTest.isPending}>
                  Send test event
                </button>
              ) : (
                <p className="hint">Activate the endpoint to send it a test event: nothing is sent to an endpoint that is not active.</p>
              )}
              <ErrorMessage error={sendTest.error} />
              {sendTest.data ? (
                <p role="status">
                  Test event {sendTest.data.event_id} ({sendTest.data.event_type}) queued: it appears in the delivery log below.
                </p>
              ) : null}
            </section>
          ) : null}
          {editing ? (
            <form
              onSubmit={(event: FormEvent) => {
                event.preventDefault();
                patch.mutate({ event_types: editing }, { onSuccess: () => setEditing(null) });
              }}
            >
              <EventTypePicker selected={editing} onChange={setEditing} />
              <button type="submit">Save event types</button>
              <button type="button" onClick={() => setEditing(null)}>
                Cancel
              </button>
            </form>
          ) : null}
          {can('webhooks:rotate-key') ? (
            <section aria-labelledby="rotate-secret">
              <h2 id="rotate-secret">Signing secret</h2>
              <form
                onSubmit={(event: FormEvent) => {
                  event.preventDefault();
                  rotate.mutate();
                }}
              >
                <label htmlFor="webhook-rotation-period">Rotation period in seconds</label>
                <input id="webhook-rotation-period" type="number" min={0} required value={period} onChange={(e) => setPeriod(e.target.value)} />
                <button type="submit" disabled={rotate.isPending}>
                  Rotate signing secret
                </button>
                <ErrorMessage error={rotate.error} />
              </form>
              {secret ? (
                <div className="secret" role="region" aria-label="New signing secret">
                  <p>The new signing secret, shown only now:</p>
                  <code>{secret}</code> <CopyButton text={secret} label="Copy signing secret" />
                </div>
              ) : null}
            </section>
          ) : null}
          <DeliveryLog endpointId={id} />
        </>
      ) : null}
    </>
  );
}

function DeliveryLog({ endpointId }: { endpointId: string }) {
  const can = useCan();
  const client = useQueryClient();
  const key = [...WEBHOOKS_KEY, endpointId, 'deliveries'] as const;
  const paged = usePaged<Delivery>(key, async (token) => {
    const page = await v2<Page<Delivery>>('/v2/webhooks/list-deliveries', {
      endpoint_id: endpointId,
      pagination: { page_size: 20, ...(token ? { next_page_token: token } : {}) },
    });
    return { items: page.items, next: page.pagination.next_page_token || undefined };
  });
  const redeliver = useMutation({
    mutationFn: (eventId: string) => v2('/v2/webhooks/redeliver', { event_id: eventId, endpoint_id: endpointId }),
    onSettled: () => client.invalidateQueries({ queryKey: key }),
  });
  return (
    <section aria-labelledby="delivery-log">
      <h2 id="delivery-log">Delivery log</h2>
      <button type="button" onClick={paged.refetch}>
        Refresh
      </button>
      <ErrorMessage error={redeliver.error} />
      {redeliver.isSuccess ? <p role="status">Redelivery started.</p> : null}
      <PagedTable
        caption="Deliveries to this endpoint"
        paged={paged}
        rowKey={(delivery) => delivery.id}
        empty="Nothing delivered yet."
        columns={[
          { header: 'Event', cell: (delivery) => `${delivery.event_type} (${delivery.event_id})` },
          { header: 'Status', cell: (delivery) => <EnumText code={delivery.status} /> },
          { header: 'Attempts', cell: (delivery) => delivery.attempt_count },
          {
            header: 'Responses',
            cell: (delivery) => (
              <ol className="attempts">
                {delivery.attempts.map((attempt) => (
                  <li key={attempt.id}>
                    #{attempt.attempt} {attempt.response_status ?? attempt.error ?? ''} {attempt.status === 'SUCCEEDED' ? 'ok' : 'failed'} at{' '}
                    {dateTime(attempt.requested_at)}
                  </li>
                ))}
              </ol>
            ),
          },
          { header: 'Next retry', cell: (delivery) => dateTime(delivery.next_attempt_at) },
          {
            header: 'Actions',
            cell: (delivery) =>
              can('webhooks:redeliver') ? (
                <button
                  type="button"
                  onClick={() => redeliver.mutate(delivery.event_id)}
                  disabled={redeliver.isPending}
                  aria-label={`Redeliver ${delivery.event_id}`}
                >
                  Redeliver
                </button>
              ) : null,
          },
        ]}
      />
    </section>
  );
}
