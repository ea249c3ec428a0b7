import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useI18n } from '../i18n/I18n';
import { loadStripe, type StripeCardElement, type StripeJs } from './stripe';

export interface StripeSetup {
  /** Null when the account's Stripe connection has no publishable key: the form says it cannot load. */
  publishableKey: string | null;
  jsUrl: string;
  /** Asks the platform for a SetupIntent of the customer (`…/create-setup-intent`). */
  createSetupIntent(): Promise<{ client_secret: string; setup_intent_id: string }>;
  /** Hands the confirmed SetupIntent to the platform (`…/attach`, `hosted-invoices/pay`). */
  complete(setupIntentId: string): Promise<void>;
}

/**
 * Stripe Elements' card field for a Stripe-connected account: the card goes from the browser to
 * Stripe against a SetupIntent, so no card number reaches the platform, which only learns the
 * SetupIntent's id. Failures of Stripe.js are said with Stripe's own message.
 */
export function StripeCardForm({ setup, submitLabel, onError }: { setup: StripeSetup; submitLabel: string; onError(error: unknown): void }) {
  const { t, language } = useI18n();
  const id = useId();
  const mountRef = useRef<HTMLDivElement>(null);
  const stripe = useRef<{ js: StripeJs; card: StripeCardElement } | undefined>(undefined);
  const [phase, setPhase] = useState<'loading' | 'ready' | 'failed' | 'busy'>('loading');
  const [name, setName] = useState('');

  useEffect(() => {
    let live = true;
    const publishableKey = setup.publishableKey;
    if (!publishableKey) {
      setPhase('failed');
      return;
    }
    loadStripe(setup.jsUrl).then(
      (factory) => {
        if (!live || !mountRef.current) return;
        const js = factory(publishableKey, { locale: language });
        const card = js.elements().create('card');
        card.mount(mountRef.current);
        stripe.current = { js, card };
        setPhase('ready');
      },
      () => live && setPhase('failed'),
    );
    return () => {
      live = false;
      stripe.current?.card.destroy();
      stripe.current = undefined;
    };
  }, [setup.jsUrl, setup.publishableKey, language]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!stripe.current || phase !== 'ready') return;
    setPhase('busy');
    onError(undefined);
    try {
      const intent = await setup.createSetupIntent();
      const trimmed = name.trim();
      const result = await stripe.current.js.confirmCardSetup(intent.client_secret, {
        payment_method: { card: stripe.current.card, ...(trimmed ? { billing_details: { name: trimmed } } : {}) },
      });
      if (result.error || !result.setupIntent) throw new Error(result.error?.message ?? t.errors.codes.SETUP_INTENT_NOT_SUCCEEDED);
      await setup.complete(result.setupIntent.id);
    } catch (error) {
      onError(error);
    } finally {
      setPhase((current) => (current === 'busy' ? 'ready' : current));
    }
  };

  return (
    <form className="card-form" onSubmit={(event) => void submit(event)}>
      <fieldset>
        <legend>{t.card.stripeDetails}</legend>
        {phase === 'loading' && <p role="status">{t.card.stripeLoading}</p>}
        {phase === 'failed' && <p role="alert">{t.card.stripeFailed}</p>}
        <div ref={mountRef} className="stripe-card" data-testid="stripe-card" />
      </fieldset>
      <label htmlFor={`${id}-name`}>{t.card.name}</label>
      <input id={`${id}-name`} value={name} onChange={(event) => setName(event.target.value)} autoComplete="cc-name" maxLength={100} />
      <div>
        <button type="submit" disabled={phase !== 'ready'}>
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
