import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { sessionCall, type CursorPage, type DashboardUser, type PendingInvitation, type Role } from '../api/session';
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

const roleLabel = (role: Role) => ROLES.find((r) => r.value === role)?.label ?? role;

/** A link to hand on: shown once, with when it stops working and a copy button. */
function LinkShown({ label, url, expiresAt, testId }: { label: string; url: string; expiresAt: string; testId: string }) {
  return (
    <div className="secret" role="region" aria-label={label}>
      <p>Send this link to them; it works once, until {dateTime(expiresAt)}:</p>
      <p>
        <code data-testid={testId}>{url}</code>
      </p>
      <CopyButton text={url} label="Copy link" />
    </div>
  );
}

/** Removing someone: the keys whose secret they saw are listed, and revoked with them if asked. */
function RemoveUser({ user, onDone }: { user: DashboardUser; onDone: () => void }) {
  const [revokeKeys, setRevokeKeys] = useState(true);
  const keys = useQuery({
    queryKey: ['issued-keys', user.id],
    queryFn: () => sessionCall<{ data: { id: string; name: string }[] }>('users/list-issued-api-keys', { user_id: user.id }),
  });
  const remove = useMutation({
    mutationFn: () => sessionCall('users/remove', { user_id: user.id, revoke_api_keys: revokeKeys && (keys.data?.data.length ?? 0) > 0 }),
    onSuccess: onDone,
  });
  const issued = keys.data?.data ?? [];
  return (
    <section aria-labelledby="remove-heading" className="secret">
      <h2 id="remove-heading">Remove {user.email}</h2>
      <p>Their sessions end at once and the invitations they made stop working.</p>
      <ErrorMessage error={keys.error} />
      {keys.data && issued.length === 0 ? <p>They hold no active API key secret.</p> : null}
      {issued.length > 0 ? (
        <>
          <p>They created or last rotated these API keys, so they have seen the secrets that work now:</p>
          <ul>
            {issued.map((key) => (
              <li key={key.id}>
                {key.name} <code>{key.id}</code>
              </li>
            ))}
          </ul>
          <label>
            <input type="checkbox" checked={revokeKeys} onChange={(e) => setRevokeKeys(e.target.checked)} /> Also revoke these {issued.length} API keys
          </label>
        </>
      ) : null}
      <div className="inline">
        <button type="button" onClick={() => remove.mutate()} disabled={remove.isPending || keys.isPending}>
          Remove from the team
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      <ErrorMessage error={remove.error} />
    </section>
  );
}

function PendingInvitations() {
  const client = useQueryClient();
  const paged = usePaged<PendingInvitation>(['invitations'], async (cursor) => {
    const page = await sessionCall<CursorPage<PendingInvitation>>('invitations/list', { limit: 20, ...(cursor ? { cursor } : {}) });
    return { items: page.data, next: page.next_cursor ?? undefined };
  });
  const revoke = useMutation({
    mutationFn: (invitationId: string) => sessionCall('invitations/revoke', { invitation_id: invitationId }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['invitations'] }),
  });
  return (
    <>
      <ErrorMessage error={revoke.error} />
      <PagedTable
        caption="Pending invitations"
        paged={paged}
        rowKey={(invitation) => invitation.id}
        empty="No invitation is waiting."
        columns={[
          { header: 'E-mail', cell: (invitation) => invitation.email },
          { header: 'Role', cell: (invitation) => roleLabel(invitation.role) },
          { header: 'Invited', cell: (invitation) => dateTime(invitation.created_at) },
          { header: 'Expires', cell: (invitation) => dateTime(invitation.expires_at) },
          {
            header: 'Actions',
            cell: (invitation) => (
              <button type="button" onClick={() => revoke.mutate(invitation.id)} aria-label={`Revoke the invitation of ${invitation.email}`}>
                Revoke
              </button>
            ),
          },
        ]}
      />
    </>
  );
}

export function TeamPage() {
  const me = useMe();
  const client = useQueryClient();
  const paged = usePaged<DashboardUser>(['team'], async (cursor) => {
    const page = await sessionCall<CursorPage<DashboardUser>>('users/list', { limit: 20, ...(cursor ? { cursor } : {}) });
    return { items: page.data, next: page.next_cursor ?? undefined };
  });
  const refresh = () => Promise.all([client.invalidateQueries({ queryKey: ['team'] }), client.invalidateQueries({ queryKey: ['invitations'] })]);
  const changeRole = useMutation({
    mutationFn: (body: { user_id: string; role: string }) => sessionCall('users/update-role', body),
    onSuccess: refresh,
  });
  const [removing, setRemoving] = useState<DashboardUser | undefined>();
  const reset = useMutation({
    mutationFn: (user: DashboardUser) => sessionCall<{ reset_url: string; expires_at: string }>('users/send-password-reset', { user_id: user.id }),
  });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('DEVELOPER');
  const invite = useMutation({
    mutationFn: () => sessionCall<{ invitation_url: string; expires_at: string }>('users/invite', { email, role }),
    onSuccess: async () => {
      setEmail('');
      await client.invalidateQueries({ queryKey: ['invitations'] });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  return (
    <>
      <PageHeading title="Team">Team</PageHeading>
      <ErrorMessage error={changeRole.error} />
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
                roleLabel(user.role)
              ) : (
                <select aria-label={`Role of ${user.email}`} value={user.role} onChange={(e) => changeRole.mutate({ user_id: user.id, role: e.target.value })}>
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
                <div className="inline">
                  <button type="button" onClick={() => reset.mutate(user)} aria-label={`Password reset link for ${user.email}`}>
                    Reset link
                  </button>
                  <button type="button" onClick={() => setRemoving(user)} aria-label={`Remove ${user.email}`}>
                    Remove
                  </button>
                </div>
              ),
          },
        ]}
      />
      <ErrorMessage error={reset.error} />
      {reset.data && reset.variables ? (
        <LinkShown label={`Password reset link for ${reset.variables.email}`} url={reset.data.reset_url} expiresAt={reset.data.expires_at} testId="reset-url" />
      ) : null}
      {removing ? (
        <RemoveUser
          key={removing.id}
          user={removing}
          onDone={() => {
            setRemoving(undefined);
            void refresh();
          }}
        />
      ) : null}
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
        {invite.data ? <LinkShown label="Invitation link" url={invite.data.invitation_url} expiresAt={invite.data.expires_at} testId="invitation-url" /> : null}
      </section>
      <section aria-labelledby="pending">
        <h2 id="pending">Pending invitations</h2>
        <PendingInvitations />
      </section>
    </>
  );
}
