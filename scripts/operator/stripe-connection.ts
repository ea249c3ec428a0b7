import type { Database } from '../../prisma/client';
import { connectStripe, stripeConnectionView, type StripeConnectionView } from '../../services/payments/providers/stripe/connection';

/**
 * `connect-stripe` (docs/payments-stripe.md, "Connecting"): saves or rotates the account's Stripe
 * credentials, sealed under the platform's key, after Stripe accepted the key. Without `apiBase`
 * a rotation keeps the connection's address (as the dashboard does); an empty one is Stripe's
 * own. The publishable key is kept the same way, and an empty one removes it. Answers the view (last 4 only); a refusal is the service's ApiError, whose message names
 * no secret.
 */
export async function connectStripeAsOperator(
  db: Database,
  input: { accountId: string; secretKey: string; webhookSecret: string; apiBase?: string; publishableKey?: string },
  key: Uint8Array,
  now: Date = new Date(),
): Promise<StripeConnectionView> {
  await requireAccount(db, input.accountId);
  const apiBase = input.apiBase === undefined ? ((await stripeConnectionView(db, input.accountId))?.api_base ?? null) : input.apiBase || null;
  return connectStripe(
    db,
    input.accountId,
    { secretKey: input.secretKey, webhookSecret: input.webhookSecret, apiBase, publishableKey: input.publishableKey, connectedBy: 'operator' },
    now,
    key,
  );
}

/** `stripe-connection`: the account's connection as shown, never a secret. */
export async function showStripeConnection(db: Database, accountId: string): Promise<StripeConnectionView> {
  await requireAccount(db, accountId);
  const view = await stripeConnectionView(db, accountId);
  if (!view) throw new Error(`Account ${accountId} has not connected Stripe (npm run operator -- connect-stripe).`);
  return view;
}

/** stripe_connections has no foreign key to accounts: a typo must not store credentials under no account. */
async function requireAccount(db: Database, accountId: string): Promise<void> {
  if (!(await db.account.findUnique({ where: { id: accountId }, select: { id: true } }))) throw new Error(`Account ${accountId} does not exist.`);
}
