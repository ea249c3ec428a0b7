import { useState } from 'react';
import { portalCall } from '../api/call';
import { useIdempotencyKey } from '../api/idempotency';
import type { CardInput, PaymentInstrument } from '../api/types';
import { useAction } from '../api/useAction';
import { useI18n } from '../i18n/I18n';
import { useSession } from '../session';
import { CardForm, useCardFieldLabel } from './CardForm';
import { ErrorMessage } from './ErrorMessage';
import { StripeCardForm } from './StripeCardForm';

/** Keeps a call's Idempotency-Key for a retry until the platform has decided it (api/idempotency.ts). */
function useKeyedCall<B, T>(operation: string) {
  const key = useIdempotencyKey();
  return async (body: B): Promise<T> => {
    try {
      const answer = await portalCall<T>(operation, body, { idempotencyKey: key.keyFor(body) });
      key.settled();
      return answer;
    } catch (error) {
      key.settled(error);
      throw error;
    }
  };
}

/**
 * Adding a card: the sandbox card form, or Stripe Elements against a SetupIntent for a
 * Stripe-connected account (docs/portal.md), so that no card number reaches the platform.
 */
export function AddCard({ onAdded }: { onAdded(instrument: PaymentInstrument): void }) {
  const { t } = useI18n();
  const { info } = useSession();
  const fieldLabel = useCardFieldLabel();
  const addCard = useKeyedCall<{ card: CardInput }, PaymentInstrument>('payment-instruments/add-card');
  const attach = useKeyedCall<{ setup_intent_id: string }, PaymentInstrument>('payment-instruments/attach');
  const add = useAction(addCard);
  const [stripeError, setStripeError] = useState<unknown>(undefined);
  const provider = info.payment_provider;

  if (provider.kind === 'STRIPE') {
    return (
      <>
        <StripeCardForm
          submitLabel={t.card.save}
          onError={setStripeError}
          setup={{
            publishableKey: provider.publishable_key,
            jsUrl: provider.js_url,
            createSetupIntent: () => portalCall('payment-instruments/create-setup-intent'),
            complete: async (setupIntentId) => onAdded(await attach({ setup_intent_id: setupIntentId })),
          }}
        />
        <ErrorMessage error={stripeError} />
      </>
    );
  }
  return (
    <>
      <CardForm
        submitLabel={t.card.save}
        pending={add.pending}
        onSubmit={(card) =>
          void add.run({ card }).then((instrument) => {
            if (instrument) onAdded(instrument);
          })
        }
      />
      <ErrorMessage error={add.error} fieldLabel={fieldLabel} />
    </>
  );
}
