import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { RequestFailed } from '../api/errors';
import { signIn } from '../api/session';
import { ErrorMessage } from '../components/ErrorMessage';
import { PageHeading } from '../components/PageHeading';
import { useNavigate } from 'react-router';
import { useSessionChanged } from '../session';

export function SignInPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [needsCode, setNeedsCode] = useState(false);
  const codeRef = useRef<HTMLInputElement>(null);
  const sessionChanged = useSessionChanged();
  const mutation = useMutation({
    mutationFn: () => signIn({ email, password, ...(code ? { totp_code: code } : {}) }),
    onSuccess: async () => {
      await sessionChanged();
      navigate('/', { replace: true });
    },
    onError: (error) => {
      if (error instanceof RequestFailed && error.code === 'TOTP_REQUIRED') {
        setNeedsCode(true);
        setTimeout(() => codeRef.current?.focus());
      }
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    mutation.mutate();
  };
  const needsCodeNow = mutation.error instanceof RequestFailed && mutation.error.code === 'TOTP_REQUIRED';
  return (
    <main id="main" className="narrow">
      <PageHeading title="Sign in">Sign in to the billing dashboard</PageHeading>
      <form onSubmit={submit} aria-describedby={mutation.error ? 'sign-in-error' : undefined}>
        <label htmlFor="email">E-mail</label>
        <input id="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <label htmlFor="password">Password</label>
        <input id="password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        {needsCode ? (
          <>
            <label htmlFor="totp">Authentication code</label>
            <input
              id="totp"
              ref={codeRef}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              required
              value={code}
              onChange={(e) => setCode(e.target.value.trim())}
              aria-describedby="totp-hint"
            />
            <p id="totp-hint" className="hint">
              The six digits your authenticator app shows for this account.
            </p>
          </>
        ) : null}
        <button type="submit" disabled={mutation.isPending}>
          Sign in
        </button>
        <div id="sign-in-error">
          {needsCodeNow ? (
            <p role="alert">Enter the code from your authenticator app.</p>
          ) : (
            <ErrorMessage error={mutation.error} />
          )}
        </div>
      </form>
    </main>
  );
}
