import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { RequestFailed } from '../api/errors';
import { sessionCall, type PaymentProviders, type StripeConnection } from '../api/session';
import { ErrorMessage } from '../components/ErrorMessage';
import { dateTime } from '../components/format';
import { PageHeading } from '../components/PageHeading';
import { useMe } from '../session';

type Field = 'secret_key' | 'webhook_secret' | 'publishable_key' | 'api_base';

const FIELDS: { field: Field; id: string; label: string }[] = [
  { field: 'secret_key', id: 'stripe-secret-key', label: 'Secret key' },
  { field: 'webhook_secret', id: 'stripe-webhook-secret', label: 'Webhook signing secret' },
  { field: 'publishable_key', id: 'stripe-publishable-key', label: 'Publishable key' },
  { field: 'api_base', id: 'stripe-api-base', label: 'API address' },
];

/** Written in clear and kept filled: a publishable key is public. */
const PUBLIC_FIELDS: readonly Field[] = ['publishable_key', 'api_base'];

/**
 * The field a refusal is about: PROVIDER_CREDENTIALS_REJECTED names it in `context.field`
 * (a format, a key Stripe refused, an address it could not reach), VALIDATION in its constraints.
 */
function refusedField(error: unknown): Field | undefined {
  if (!(error instanceof RequestFailed)) return undefined;
  const context = error.envelope.context ?? {};
  const named = error.code === 'PROVIDER_CREDENTIALS_REJECTED' ? context.field : Object.keys((context.constraints as object | undefined) ?? {})[0];
  return FIELDS.find((f) => f.field === named)?.field;
}

function refusalMessage(error: RequestFailed, field: Field): string {
  const constraint = (error.envelope.context?.constraints as Record<string, { message?: string }> | undefined)?.[field];
  return constraint?.message ?? error.message;
}

function ConnectedBy({ connection }: { connection: StripeConnection }) {
  const me = useMe();
  if (connection.connected_by === 'operator') return <>the operator command</>;
  if (connection.connected_by === me.user.id) return <>You</>;
  return <code>{connection.connected_by}</code>;
}

function Connection({ connection }: { connection: StripeConnection }) {
  return (
    <dl className="facts" aria-label="Stripe connection">
      <dt>Provider</dt>
      <dd>Stripe</dd>
      <dt>Mode</dt>
      <dd data-testid="stripe-mode">{connection.livemode ? 'Live: real cards are charged' : 'Test: only Stripe’s test cards'}</dd>
      <dt>Secret key</dt>
      <dd data-testid="secret-key-last4">ending in {connection.secret_key_last4}</dd>
      <dt>Webhook signing secret</dt>
      <dd data-testid="webhook-secret-last4">ending in {connection.webhook_secret_last4}</dd>
      <dt>Publishable key</dt>
      <dd data-testid="publishable-key">{connection.publishable_key ? <code>{connection.publishable_key}</code> : 'None: the customer portal cannot take cards through Stripe'}</dd>
      <dt>API address</dt>
      <dd>{connection.api_base ?? 'Stripe (https://api.stripe.com)'}</dd>
      <dt>Saved by</dt>
      <dd>
        <ConnectedBy connection={connection} />
      </dd>
      <dt>Connected / last saved</dt>
      <dd>
        {dateTime(connection.connected_at)} / {dateTime(connection.updated_at)}
      </dd>
    </dl>
  );
}

/**
 * The secrets are write-only: the form starts empty, is emptied once saved, and nothing the
 * server answers holds them. The API address is offered only where the platform allows it.
 */
function CredentialsForm({ providers }: { providers: PaymentProviders }) {
  const client = useQueryClient();
  const [values, setValues] = useState<Record<Field, string>>({
    secret_key: '',
    webhook_secret: '',
    publishable_key: providers.stripe?.publishable_key ?? '',
    api_base: providers.stripe?.api_base ?? '',
  });
  const save = useMutation({
    mutationFn: () =>
      sessionCall<StripeConnection>('payment-providers/connect-stripe', {
        secret_key: values.secret_key,
        webhook_secret: values.webhook_secret,
        publishable_key: values.publishable_key.trim() || null,
        ...(providers.api_base_editable ? { api_base: values.api_base.trim() || null } : {}),
      }),
    onSuccess: async (connection) => {
      setValues({ secret_key: '', webhook_secret: '', publishable_key: connection.publishable_key ?? '', api_base: connection.api_base ?? '' });
      await client.invalidateQueries({ queryKey: ['payment-providers'] });
    },
  });
  const fields = FIELDS.filter((f) => f.field !== 'api_base' || providers.api_base_editable);
  const field = refusedField(save.error);
  const besideField = save.error instanceof RequestFailed && field && fields.some((f) => f.field === field) ? field : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} aria-labelledby="stripe-form-heading">
      <h3 id="stripe-form-heading">{providers.stripe ? 'Rotate the credentials' : 'Connect Stripe'}</h3>
      <p className="hint">
        From the Stripe dashboard: a secret or restricted key (<code>sk_…</code>, <code>rk_…</code>) and the signing secret of the webhook endpoint (
        <code>whsec_…</code>). Stripe is asked whether it accepts the key before anything is saved; afterwards only their last 4 characters are ever shown. The
        publishable key (<code>pk_…</code>, of the same mode) lets the customer portal take cards with Stripe.js.
      </p>
      {fields.map((f) => (
        <div key={f.field}>
          <label htmlFor={f.id}>{f.label}</label>
          <input
            id={f.id}
            type={f.field === 'api_base' ? 'url' : PUBLIC_FIELDS.includes(f.field) ? 'text' : 'password'}
            autoComplete="off"
            spellCheck={false}
            required={!PUBLIC_FIELDS.includes(f.field)}
            placeholder={f.field === 'api_base' ? 'https://api.stripe.com' : f.field === 'publishable_key' ? 'pk_test_… (optional)' : undefined}
            value={values[f.field]}
            onChange={(e) => setValues({ ...values, [f.field]: e.target.value })}
            aria-invalid={besideField === f.field || undefined}
            aria-describedby={[f.field === 'api_base' ? `${f.id}-hint` : '', besideField === f.field ? `${f.id}-error` : ''].filter(Boolean).join(' ') || undefined}
          />
          {f.field === 'api_base' ? (
            <p className="hint" id={`${f.id}-hint`}>
              Empty: Stripe’s own address. This platform lets the dashboard change it (STRIPE_API_BASE_EDITABLE).
            </p>
          ) : null}
          {besideField === f.field ? (
            <p id={`${f.id}-error`} role="alert" className="error">
              {refusalMessage(save.error as RequestFailed, f.field)}
            </p>
          ) : null}
        </div>
      ))}
      <button type="submit" disabled={save.isPending}>
        {save.isPending ? 'Checking with Stripe…' : 'Save credentials'}
      </button>
      {besideField ? null : <ErrorMessage error={save.error} />}
      {save.isSuccess ? <p role="status">Saved: Stripe accepted the key. The secrets are not shown again.</p> : null}
    </form>
  );
}

export function PaymentProvidersPage() {
  const providers = useQuery({ queryKey: ['payment-providers'], queryFn: () => sessionCall<PaymentProviders>('payment-providers/get') });
  return (
    <>
      <PageHeading title="Payment providers">Payment providers</PageHeading>
      <ErrorMessage error={providers.error} />
      {providers.data ? (
        <section aria-labelledby="stripe-heading">
          <h2 id="stripe-heading">Stripe</h2>
          {providers.data.stripe ? <Connection connection={providers.data.stripe} /> : <p>Stripe is not connected.</p>}
          <CredentialsForm providers={providers.data} />
        </section>
      ) : null}
    </>
  );
}
