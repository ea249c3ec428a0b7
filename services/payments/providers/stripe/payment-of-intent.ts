import type { Database } from '../../../../prisma/client';
import type { PaymentRow } from '../../payment-rows';
import { STRIPE_PROVIDER } from './stripe-provider';

const SUFFIX = `/${STRIPE_PROVIDER}`;

/**
 * The payment of the account a PaymentIntent was made for: by the key in its metadata (every
 * PaymentIntent the provider makes carries it, also when the run that made it died before the
 * payment recorded Stripe's id), else by the id the payment recorded. A key is believed only when
 * the rest agrees (the id the payment recorded, if any; the amount and currency, when given):
 * another integration on the same Stripe account could copy our metadata onto a PaymentIntent of
 * its own. Null for one we did not make.
 */
export async function paymentOfIntent(
  db: Database,
  accountId: string,
  intent: { id: string; metadata?: Record<string, string> | null; amount?: number; currency?: string },
): Promise<PaymentRow | null> {
  const key = intent.metadata?.bp_idempotency_key;
  const byKey = key?.endsWith(SUFFIX) ? ((await db.payment.findFirst({ where: { id: key.slice(0, -SUFFIX.length), accountId } })) as PaymentRow | null) : null;
  const candidate = byKey ?? ((await db.payment.findFirst({ where: { accountId, provider: STRIPE_PROVIDER, providerChargeId: intent.id } })) as PaymentRow | null);
  if (!candidate) return null;
  const sameIntent = !candidate.providerChargeId || candidate.providerChargeId === intent.id;
  const sameMoney = intent.amount === undefined || (candidate.amount === intent.amount && candidate.currency.toLowerCase() === intent.currency?.toLowerCase());
  return sameIntent && sameMoney ? candidate : null;
}
