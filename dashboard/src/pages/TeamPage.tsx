import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { sessionCall, type CursorPage, type DashboardUser, type Role } from '../api/session';
import { CopyButton } from '../components/CopyButton';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime } from '../components/format';
import { PageHeading } from '../components/PageHeading';
import { PagedTable } from '../components/PagedTable';
import { usePaged } from '../components/usePaged';
import { useMe } from '../session';

const ROLES: { value: Role; label: string }[] = [
  { value: 'MERCHANT_ADMIN', label: 'Merchant admin' },
  { value: 'DEVELOPER', label: 'Developer' },
  { value: 'SUPPORT', label: 'Support (read-only)' },
];

export function TeamPage() {
  const me = useMe();
  const client = useQueryClient();
  const paged = usePaged<DashboardUser>(['team'], async (cursor) => {
    const page = await sessionCall<CursorPage<DashboardUser>>('users/list', { limit: 20, ...(cursor ? { cursor } : {}) });
    return { items: page.data, next: page.next_cursor ?? undefined };
  });
  const refresh = () => client.invalidateQueries({ queryKey: ['team'] });
  const change = useMutation({
    mutationFn: (input: { path: 'users/update-role' | 'users/remove'; body: Record<string, string> }) => sessionCall(input.path, input.body),
    onSuccess: refresh,
  });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('DEVELOPER');
  const invite = useMutation({
    mutationFn: () => sessionCall<{ invitation_url: string; expires_at: string }>('users/invite', { email, role }),
    onSuccess: () => setEmail(''),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  return (
    <>
      <PageHeading title="Team">Team</PageHeading>
      <ErrorMessage error={change.error} />
      <PagedTable
        caption="People with access to this account"
        paged={paged}
        rowKey={(user) => user.id}
        empty="No one yet."
        columns={[
          { header: 'E-mail', cell: (user) => user.email },
          {
            header: 'Role',
            cell: (user) =>
              user.id === me.user.id ? (
                ROLES.find((r) => r.value === user.role)?.label ?? user.role
              ) : (
                <select
                  aria-label={`Role of ${user.email}`}
                  value={user.role}
                  onChange={(e) => change.mutate({ path: 'users/update-role', body: { user_id: user.id, role: e.target.value } })}
                >
                  {ROLES.map((r) => (
                    <option key={r.value} value={r.value}>
                      {r.label}
                    </option>
                  ))}
                </select>
              ),
          },
          { header: 'Second factor', cell: (user) => (user.totp_enabled ? 'On' : 'Off') },
          { header: 'Since', cell: (user) => dateTime(user.created_at) },
          {
            header: 'Actions',
            cell: (user) =>
              user.id === me.user.id ? null : (
                <button type="button" onClick={() => change.mutate({ path: 'users/remove', body: { user_id: user.id } })} aria-label={`Remove ${user.email}`}>
                  Remove
                </button>
              ),
          },
        ]}
      />
      <section aria-labelledby="invite">
        <h2 id="invite">Invite someone</h2>
        <form onSubmit={submit} className="inline">
          <label htmlFor="invite-email">E-mail</label>
          <input id="invite-email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
          <button type="submit" disabled={invite.isPending}>
            Create invitation link
          </button>
        </form>
        <ErrorMessage error={invite.error} />
        {invite.data ? (
          <div className="secret" role="region" aria-label="Invitation link">
            <p>Send this link to them; it works once, until {dateTime(invite.data.expires_at)}:</p>
            <p>
              <code data-testid="invitation-url">{invite.data.invitation_url}</code>
            </p>
            <CopyButton text={invite.data.invitation_url} label="Copy link" />
          </div>
        ) : null}
      </section>
    </>
  );
}
