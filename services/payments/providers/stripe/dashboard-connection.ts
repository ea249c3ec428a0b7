import { ApiError } from '../../../../domain/errors';
import type { Database } from '../../../../prisma/client';
import type { DashboardActor } from '../../../dashboard/actor';
import { stripeApiBaseEditable } from './api-base-editable';
import { connectStripe, stripeConnectionView, type StripeConnectionView } from './connection';

export interface DashboardStripeCredentials {
  secretKey: string;
  webhookSecret: string;
  /** Absent: the connection keeps its address. Null or empty: Stripe's own. */
  apiBase?: string | null;
  /** Absent: the connection keeps its publishable key. Null or empty: none. */
  publishableKey?: string | null;
}

/** What the admin's Payment providers page shows: the connection, and whether it may set the address. */
export async function paymentProvidersOf(db: Database, accountId: string, env: NodeJS.ProcessEnv = process.env): Promise<{ stripe: StripeConnectionView | null; api_base_editable: boolean }> {
  return { stripe: await stripeConnectionView(db, accountId), api_base_editable: stripeApiBaseEditable(env) };
}

/**
 * Saves or rotates the admin's account's Stripe credentials (docs/payments-stripe.md,
 * "Connecting"), recorded as connected by the admin. Rotating keeps the address the connection
 * had unless one is given, which only STRIPE_API_BASE_EDITABLE allows (400 `VALIDATION` on
 * `api_base` otherwise): so an operator's egress proxy survives a rotation made in the browser.
 */
export async function connectStripeFromDashboard(
  db: Database,
  actor: Pick<DashboardActor, 'accountId' | 'userId'>,
  input: DashboardStripeCredentials,
  now: Date,
  env: NodeJS.ProcessEnv = process.env,
): Promise<StripeConnectionView> {
  if (input.apiBase !== undefined && !stripeApiBaseEditable(env)) {
    throw ApiError.validation({
      api_base: { type: 'INVALID', message: 'The API address is set by the operator command; this platform does not let the dashboard change it (STRIPE_API_BASE_EDITABLE).' },
    });
  }
  const apiBase = input.apiBase === undefined ? ((await stripeConnectionView(db, actor.accountId))?.api_base ?? null) : input.apiBase || null;
  return connectStripe(
    db,
    actor.accountId,
    { secretKey: input.secretKey, webhookSecret: input.webhookSecret, apiBase, publishableKey: input.publishableKey, connectedBy: actor.userId },
    now,
  );
}
