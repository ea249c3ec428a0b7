import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useFocusOnMount } from '../components/useFocusOnMount';
import { PERMISSIONS, type Permission } from '../../../domain/permissions';
import type { ApiKey } from '../api/types';
import { v2, type Page } from '../api/v2';
import { useChannelName } from '../components/channels';
import { CopyButton } from '../components/CopyButton';
import { KeyPermissions } from '../components/KeyPermissions';
import { PermissionPicker } from '../components/PermissionPicker';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime, timeLeft } from '../components/format';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';
import { useCan, useMe } from '../session';

const KEYS = ['api-keys'] as const;

function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

export function ApiKeysPage() {
  const can = useCan();
  const me = useMe();
  const channelName = useChannelName();
  const [rotating, setRotating] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [revokedName, setRevokedName] = useState<string | null>(null);
  const [revealed, setRevealed] = useState<{ title: string; secret: string } | null>(null);
  const paged = usePaged<ApiKey>(KEYS, async (token) => {
    const page = await v2<Page<ApiKey>>('/v2/api-keys/list', { pagination: { page_size: 20, ...(token ? { next_page_token: token } : {}) } });
    return { items: page.items, next: page.pagination.next_page_token || undefined };
  });
  return (
    <>
      <PageHeading title="API keys">API keys</PageHeading>
      <p>
        Keys authenticate calls to <code>/v2</code>. An account-level key reaches all channels; a bound key only its channels.
      </p>
      {revealed ? <SecretOnce {...revealed} onDone={() => setRevealed(null)} /> : null}
      {revokedName ? <p role="status">{revokedName} is revoked: its secrets no longer authenticate.</p> : null}
      <PagedTable
        caption="API keys"
        paged={paged}
        rowKey={(key) => key.id}
        empty="No keys yet."
        columns={[
          { header: 'Name', cell: (key) => <span title={key.id}>{key.name}</span> },
          { header: 'Channels', cell: (key) => (key.channel_ids.length === 0 ? 'All channels' : key.channel_ids.map(channelName).join(', ')) },
          { header: 'Permissions', cell: (key) => <KeyPermissions permissions={key.permissions} /> },
          {
            header: 'Status',
            cell: (key) =>
              key.status === 'REVOKED' ? `Revoked ${dateTime(key.revoked_at)}` : key.rotate_at ? <RotationStatus until={key.rotate_at} /> : 'Active',
          },
          { header: 'Created', cell: (key) => dateTime(key.created_at) },
          {
            header: 'Secret issued to',
            cell: (key) => (!key.issued_by_user_id ? 'An API key' : key.issued_by_user_id === me.user.id ? 'You' : key.issued_by_user_id),
          },
          {
            header: 'Actions',
            cell: (key) =>
              key.status === 'REVOKED' ? null : (
                <>
                  {can('api-keys:rotate') ? (
                    <button
                      type="button"
                      onClick={() => {
                        setRevoking(null);
                        setRotating(key);
                      }}
                      aria-label={`Rotate ${key.name}`}
                    >
                      Rotate
                    </button>
                  ) : null}
                  {can('api-keys:revoke') ? (
                    <button
                      type="button"
                      className="danger"
                      onClick={() => {
                        setRotating(null);
                        setRevoking(key);
                      }}
                      aria-label={`Revoke ${key.name}`}
                    >
                      Revoke
                    </button>
                  ) : null}
                </>
              ),
          },
        ]}
      />
      {rotating ? (
        <RotateKey
          apiKey={rotating}
          onCancel={() => setRotating(null)}
          onRotated={(secret) => {
            setRotating(null);
            setRevealed({ title: `New secret of ${rotating.name}`, secret });
          }}
        />
      ) : null}
      {revoking ? (
        <RevokeKey
          apiKey={revoking}
          onCancel={() => setRevoking(null)}
          onRevoked={() => {
            setRevoking(null);
            setRevokedName(revoking.name);
          }}
        />
      ) : null}
      {can('api-keys:create') ? <CreateKey onCreated={(name, secret) => setRevealed({ title: `Secret of ${name}`, secret })} /> : null}
    </>
  );
}

/** Ticks every second while the overlap lasts, so the time left counts down in place. */
function RotationStatus({ until }: { until: string }) {
  const now = useNow(1000);
  if (Date.parse(until) <= now) return <>Active</>;
  return (
    <span>
      Rotation in progress: previous secret valid until {dateTime(until)} ({timeLeft(until, now)})
    </span>
  );
}

function SecretOnce({ title, secret, onDone }: { title: string; secret: string; onDone: () => void }) {
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  return (
    <section className="secret" aria-labelledby="secret-title" role="region">
      <h2 id="secret-title" tabIndex={-1} ref={headingRef}>
        {title}
      </h2>
      <p>Shown only now: store it in your secret manager before you leave this page.</p>
      <p>
        <code data-testid="secret">{secret}</code>
      </p>
      <CopyButton text={secret} label="Copy secret" />
      <button type="button" onClick={onDone}>
        I have stored it
      </button>
    </section>
  );
}

function CreateKey({ onCreated }: { onCreated: (name: string, secret: string) => void }) {
  const me = useMe();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [channels, setChannels] = useState<string[]>([]);
  const [permissions, setPermissions] = useState<Permission[]>([]);
  // The documented list, narrowed to what this user may grant: the server refuses the rest.
  const grantable = PERMISSIONS.filter((permission) => me.permissions.includes(permission));
  const create = useMutation({
    mutationFn: () => {
      return v2<ApiKey & { secret: string }>('/v2/api-keys/create', {
        name,
        permissions,
        ...(channels.length > 0 ? { channel_ids: channels } : {}),
      });
    },
    onSuccess: async (created) => {
      onCreated(created.name, created.secret);
      setName('');
      setPermissions([]);
      setChannels([]);
      await client.invalidateQueries({ queryKey: KEYS });
    },
  });
  const toggle = (list: string[], value: string, on: boolean) => (on ? [...list, value] : list.filter((item) => item !== value));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <section aria-labelledby="create-key">
      <h2 id="create-key">Create a key</h2>
      <form onSubmit={submit}>
        <label htmlFor="key-name">Name</label>
        <input id="key-name" required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        <fieldset>
          <legend>Channels (none: all channels)</legend>
          {me.account.channels.map((channel) => (
            <label key={channel.id} className="check">
              <input type="checkbox" checked={channels.includes(channel.id)} onChange={(e) => setChannels(toggle(channels, channel.id, e.target.checked))} />
              {channel.name}
            </label>
          ))}
        </fieldset>
        <PermissionPicker grantable={grantable} chosen={permissions} onChange={setPermissions} />
        <button type="submit" disabled={create.isPending}>
          Create key
        </button>
        <ErrorMessage error={create.error} />
      </form>
    </section>
  );
}

function RotateKey({ apiKey, onCancel, onRotated }: { apiKey: ApiKey; onCancel: () => void; onRotated: (secret: string) => void }) {
  const client = useQueryClient();
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const [period, setPeriod] = useState('86400');
  const rotate = useMutation({
    mutationFn: () => v2<ApiKey & { rotate_secret: string }>('/v2/api-keys/rotate', { id: apiKey.id, rotation_period: Number(period) }),
    onSuccess: async (rotated) => {
      onRotated(rotated.rotate_secret);
      await client.invalidateQueries({ queryKey: KEYS });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rotate.mutate();
  };
  return (
    <section aria-labelledby="rotate-key" className="panel">
      <h2 id="rotate-key" tabIndex={-1} ref={headingRef}>
        Rotate {apiKey.name}
      </h2>
      <form onSubmit={submit}>
        <label htmlFor="rotation-period">Rotation period in seconds</label>
        <input
          id="rotation-period"
          type="number"
          min={0}
          required
          value={period}
          onChange={(e) => setPeriod(e.target.value)}
          aria-describedby="rotation-period-hint"
        />
        <p id="rotation-period-hint" className="hint">
          The previous secret keeps working this long; 0 stops it at once.
        </p>
        <button type="submit" disabled={rotate.isPending}>
          Rotate secret
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <ErrorMessage error={rotate.error} />
      </form>
    </section>
  );
}

/**
 * The confirmation before a revoke, which cannot be undone: focus moves to its heading, the
 * first Tab reaches "Revoke key", Escape or "Cancel" closes it with nothing changed.
 */
function RevokeKey({ apiKey, onCancel, onRevoked }: { apiKey: ApiKey; onCancel: () => void; onRevoked: () => void }) {
  const client = useQueryClient();
  const headingRef = useFocusOnMount<HTMLHeadingElement>();
  const revoke = useMutation({
    mutationFn: () => v2<ApiKey>('/v2/api-keys/revoke', { id: apiKey.id }),
    onSuccess: async () => {
      onRevoked();
      await client.invalidateQueries({ queryKey: KEYS });
    },
  });
  return (
    <section
      aria-labelledby="revoke-key"
      className="panel"
      role="alertdialog"
      aria-describedby="revoke-key-warning"
      onKeyDown={(event: KeyboardEvent) => {
        if (event.key === 'Escape') onCancel();
      }}
    >
      <h2 id="revoke-key" tabIndex={-1} ref={headingRef}>
        Revoke {apiKey.name}?
      </h2>
      <p id="revoke-key-warning">
        Every secret of this key stops working at once{apiKey.rotate_at ? ', the previous one of the rotation in progress too' : ''}. This cannot be
        undone: calls made with it will be refused from now on.
      </p>
      <button type="button" className="danger" onClick={() => revoke.mutate()} disabled={revoke.isPending}>
        Revoke key
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
      <ErrorMessage error={revoke.error} />
    </section>
  );
}
