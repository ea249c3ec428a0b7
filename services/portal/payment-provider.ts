import type { Database } from '../../prisma/client';
import { stripeConnectionView } from '../payments/providers/stripe/connection';
import { stripeJsUrl } from '../payments/providers/stripe/js-url';

export type PortalPaymentProvider = { kind: 'SANDBOX' } | { kind: 'STRIPE'; publishable_key: string | null; js_url: string };

/**
 * How the portal's pages collect a card: the sandbox card form, or, for an account connected to
 * Stripe, Stripe.js Elements against a SetupIntent so no card number reaches the platform.
 */
export async function portalPaymentProvider(db: Database, accountId: string): Promise<PortalPaymentProvider> {
  const connection = await stripeConnectionView(db, accountId);
  if (!connection) return { kind: 'SANDBOX' };
  return { kind: 'STRIPE', publishable_key: connection.publishable_key, js_url: stripeJsUrl() };
}
