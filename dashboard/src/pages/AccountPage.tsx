import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { sessionCall } from '../api/session';
import { ErrorMessage } from '../components/ErrorMessage';
import { PageHeading } from '../components/PageHeading';
import { PortalSettingsSection } from '../components/PortalSettingsSection';
import { useMe, useSessionChanged } from '../session';

/** Any signed-in user's own password: the current one, then the new one twice. */
function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const change = useMutation({
    mutationFn: () => sessionCall('password/change', { current_password: current, new_password: next }),
    onSuccess: () => {
      setCurrent('');
      setNext('');
      setRepeat('');
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setMismatch(next !== repeat);
    change.reset();
    if (next === repeat) change.mutate();
  };
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form onSubmit={submit}>
        <label htmlFor="current-password">Current password</label>
        <input id="current-password" type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
        <label htmlFor="new-password">New password</label>
        <input id="new-password" type="password" autoComplete="new-password" required value={next} onChange={(e) => setNext(e.target.value)} />
        <label htmlFor="repeat-password">Repeat the new password</label>
        <input id="repeat-password" type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        <button type="submit" disabled={change.isPending}>
          Change password
        </button>
        {mismatch ? <p role="alert">The two passwords differ.</p> : null}
        {change.isSuccess ? <p role="status">Password changed. Your other sessions were signed out.</p> : null}
        <ErrorMessage error={change.error} />
      </form>
    </section>
  );
}

/** The second factor: enroll (secret and otpauth link, confirmed by a code) or turn it off, each behind the password. */
function TwoStepSignIn() {
  const me = useMe();
  const sessionChanged = useSessionChanged();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const enroll = useMutation({
    mutationFn: () => sessionCall<{ secret: string; otpauth_url: string }>('totp/enroll', { password }),
    onSuccess: () => setPassword(''),
  });
  const confirm = useMutation({
    mutationFn: (path: 'totp/confirm' | 'totp/disable') => sessionCall(path, path === 'totp/disable' ? { code, password } : { code }),
    onSuccess: async () => {
      setCode('');
      setPassword('');
      enroll.reset();
      await sessionChanged();
    },
  });
  const startEnrolling = (event: FormEvent) => {
    event.preventDefault();
    enroll.mutate();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(me.user.totp_enabled ? 'totp/disable' : 'totp/confirm');
  };
  const passwordField = (
    <>
      <label htmlFor="totp-password">Your password</label>
      <input id="totp-password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
    </>
  );
  return (
    <section aria-labelledby="totp-heading">
      <h2 id="totp-heading">Two-step sign-in</h2>
      <p>
        Two-step sign-in is <strong>{me.user.totp_enabled ? 'on' : 'off'}</strong>.
      </p>
      {!me.user.totp_enabled && !enroll.data ? (
        <form onSubmit={startEnrolling} className="inline">
          {passwordField}
          <button type="submit" disabled={enroll.isPending}>
            Turn on two-step sign-in
          </button>
        </form>
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
          {me.user.totp_enabled ? passwordField : null}
          <button type="submit" disabled={confirm.isPending}>
            {me.user.totp_enabled ? 'Turn off two-step sign-in' : 'Confirm'}
          </button>
        </form>
      ) : null}
      <ErrorMessage error={confirm.error} />
    </section>
  );
}

export function AccountPage() {
  const me = useMe();
  return (
    <>
      <PageHeading title="Account security">Account security</PageHeading>
      <p>Signed in as {me.user.email}.</p>
      <ChangePassword />
      <TwoStepSignIn />
      <PortalSettingsSection editable={me.user.role === 'MERCHANT_ADMIN'} />
    </>
  );
}
