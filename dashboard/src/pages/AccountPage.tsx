import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { sessionCall } from '../api/session';
import { ErrorMessage } from '../components/ErrorMessage';
import { PageHeading } from '../components/PageHeading';
import { useMe, useSessionChanged } from '../session';

/** The signed-in user's second factor: enroll (secret and otpauth link, confirmed by a code) or turn it off. */
export function AccountPage() {
  const me = useMe();
  const sessionChanged = useSessionChanged();
  const [code, setCode] = useState('');
  const enroll = useMutation({ mutationFn: () => sessionCall<{ secret: string; otpauth_url: string }>('totp/enroll') });
  const confirm = useMutation({
    mutationFn: (path: 'totp/confirm' | 'totp/disable') => sessionCall(path, { code }),
    onSuccess: async () => {
      setCode('');
      enroll.reset();
      await sessionChanged();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(me.user.totp_enabled ? 'totp/disable' : 'totp/confirm');
  };
  return (
    <>
      <PageHeading title="Account security">Account security</PageHeading>
      <p>
        Signed in as {me.user.email}. Two-step sign-in is <strong>{me.user.totp_enabled ? 'on' : 'off'}</strong>.
      </p>
      {!me.user.totp_enabled && !enroll.data ? (
        <button type="button" onClick={() => enroll.mutate()} disabled={enroll.isPending}>
          Turn on two-step sign-in
        </button>
      ) : null}
      <ErrorMessage error={enroll.error} />
      {enroll.data ? (
        <div className="secret" role="region" aria-label="Authenticator setup">
          <p>Add this secret to your authenticator app, then enter the code it shows.</p>
          <p>
            <code>{enroll.data.secret}</code>
          </p>
          <p>
            <a href={enroll.data.otpauth_url}>Open in an authenticator app</a>
          </p>
        </div>
      ) : null}
      {me.user.totp_enabled || enroll.data ? (
        <form onSubmit={submit} className="inline">
          <label htmlFor="totp-code">Code from your authenticator app</label>
          <input id="totp-code" inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value.trim())} />
          <button type="submit" disabled={confirm.isPending}>
            {me.user.totp_enabled ? 'Turn off two-step sign-in' : 'Confirm'}
          </button>
        </form>
      ) : null}
      <ErrorMessage error={confirm.error} />
    </>
  );
}
