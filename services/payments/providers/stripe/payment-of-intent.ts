import type { Database } from '../../../../prisma/client';
import type { PaymentRow } from '../../payment-rows';
import { STRIPE_PROVIDER } from './stripe-provider';

const SUFFIX = `/${STRIPE_PROVIDER}`;

/**
 * The payment of the account a PaymentIntent was made for: by the key in its metadata (every
 * PaymentIntent the provider makes carries it, also when the run that made it died before the
 * payment recorded Stripe's id), else by the id the payment recorded. Null for one we did not make.
 */
export async function paymentOfIntent(db: Database, accountId: string, intent: { id: string; metadata?: Record<string, string> | null }): Promise<PaymentRow | null> {
  const key = intent.metadata?.bp_idempotency_key;
  if (key?.endsWith(SUFFIX)) {
    const byKey = await db.payment.findFirst({ where: { id: key.slice(0, -SUFFIX.length), accountId } });
    if (byKey) return byKey as PaymentRow;
  }
  return (await db.payment.findFirst({ where: { accountId, provider: STRIPE_PROVIDER, providerChargeId: intent.id } })) as PaymentRow | null;
}
