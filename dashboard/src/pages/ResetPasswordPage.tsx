import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { sessionCall, type PasswordReset } from '../api/session';
import { ErrorMessage } from '../components/ErrorMessage';
import { PageHeading } from '../components/PageHeading';
import { Link } from 'react-router';

/** Where an admin's reset link lands: a new password, then the usual sign-in (second factor included). */
export function ResetPasswordPage({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const reset = useQuery({
    queryKey: ['password-reset', token],
    queryFn: () => sessionCall<PasswordReset>('session/password-reset', { token }),
    enabled: token !== '',
  });
  const change = useMutation({ mutationFn: () => sessionCall('session/reset-password', { token, password }) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(password !== repeat);
    if (password === repeat) change.mutate();
  };
  return (
    <main id="main" className="narrow">
      <PageHeading title="Choose a new password">Choose a new password</PageHeading>
      {token === '' ? <p role="alert">This link has no reset token. Ask an admin for a new link.</p> : null}
      <ErrorMessage error={reset.error} />
      {reset.data ? (
        <p>
          For {reset.data.email} in <strong>{reset.data.account_name}</strong>.
        </p>
      ) : null}
      {change.isSuccess ? (
        <p role="status">
          Your password is set. <Link to="/sign-in">Sign in</Link> with it.
        </p>
      ) : (
        <form onSubmit={submit}>
          <label htmlFor="new-password">New password</label>
          <input id="new-password" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
          <label htmlFor="repeat-password">Repeat the password</label>
          <input id="repeat-password" type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />
          <button type="submit" disabled={change.isPending || token === ''}>
            Set the new password
          </button>
          {mismatch ? <p role="alert">The two passwords differ.</p> : null}
          <ErrorMessage error={change.error} />
        </form>
      )}
    </main>
  );
}
