import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { acceptInvitation, sessionCall, type Invitation } from '../api/session';
import { EnumText } from '../components/EnumText';
import { ErrorMessage } from '../components/ErrorMessage';
import { PageHeading } from '../components/PageHeading';
import { useNavigate } from 'react-router';
import { useSessionChanged } from '../session';

/** Where an invitation link (or the first-start sign-in link) lands: choose a password, signed in after. */
export function AcceptInvitationPage({ token }: { token: string }) {
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const sessionChanged = useSessionChanged();
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => sessionCall<Invitation>('session/invitation', { token }),
    enabled: token !== '',
  });
  const accept = useMutation({
    mutationFn: () => acceptInvitation({ token, password }),
    onSuccess: async () => {
      await sessionChanged();
      navigate('/', { replace: true });
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== repeat);
    if (password === repeat) accept.mutate();
  };
  return (
    <main id="main" className="narrow">
      <PageHeading title="Set your password">Set your password</PageHeading>
      {token === '' ? <p role="alert">This link has no invitation token. Ask an admin for a new link.</p> : null}
      <ErrorMessage error={invitation.error} />
      {invitation.data ? (
        <p>
          You are joining <strong>{invitation.data.account_name}</strong> as {invitation.data.email} (<EnumText code={invitation.data.role} />).
        </p>
      ) : null}
      <form onSubmit={submit}>
        <label htmlFor="new-password">New password</label>
        <input
          id="new-password"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <label htmlFor="repeat-password">Repeat the password</label>
        <input id="repeat-password" type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        <button type="submit" disabled={accept.isPending || token === ''}>
          Set password and sign in
        </button>
        {mismatch ? <p role="alert">The two passwords differ.</p> : null}
        <ErrorMessage error={accept.error} />
      </form>
    </main>
  );
}
