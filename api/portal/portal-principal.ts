import type { Permission } from '../../domain/permissions';
import type { PortalActor } from '../../services/portal/actor';
import type { Principal } from '../auth/principal';

/**
 * Everything the portal does through /v2, and nothing more: a portal session that found a way to
 * name another operation would still be refused by authorizedProcedure.
 */
export const PORTAL_PERMISSIONS: readonly Permission[] = [
  'customers:get',
  'customers:update',
  'invoices:list',
  'invoices:pay',
  'invoices:preview',
  'credit-notes:list',
  'payment-instruments:list',
  'payment-instruments:tokenize',
  'payment-instruments:attach',
  'payment-instruments:revoke',
  'subscriptions:list',
  'subscriptions:cancel',
  'subscriptions:delete-cancellation',
  'subscriptions:update',
];

/**
 * The customer as a /v2 caller: bound to the customer's channel, and keyed by the customer's id,
 * so rate limits and Idempotency-Keys are the customer's own and never meet an API key's.
 */
export function portalPrincipal(actor: PortalActor, channelId: string, permissions: readonly Permission[] = PORTAL_PERMISSIONS): Principal {
  return { accountId: actor.accountId, apiKeyId: actor.customerId, channelIds: [channelId], permissions: new Set(permissions), customer: actor };
}
