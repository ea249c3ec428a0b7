import { formatDateTime } from '../../domain/datetime';
import { hashDashboardToken, newDashboardToken } from '../../domain/dashboard-tokens';
import { ApiError } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { PORTAL_LINK_TTL_MS } from '../../domain/portal/session-limits';
import type { Prisma } from '../../prisma/client';
import { visibleCustomer } from '../customers/rules';
import { publicUrl } from '../files/config';
import type { Scope } from '../scope';

export interface PortalLinkRequest {
  customerId: string;
  returnUrl?: string;
  locale?: string;
  /** The API key or dashboard user asking. */
  createdBy: string;
}

export function portalLinkUrl(token: string): string {
  return `${publicUrl()}/portal/open/${token}`;
}

/**
 * customer-portal-sessions/create: a one-time link for an ACTIVE customer the caller reaches,
 * valid for 10 minutes. The token is answered here, once; only its SHA-256 is stored.
 */
export async function createPortalLink(tx: Prisma.TransactionClient, scope: Scope, request: PortalLinkRequest, now: Date) {
  const customer = await visibleCustomer(tx, scope, request.customerId);
  if (customer.status !== 'ACTIVE') {
    throw new ApiError('INCOMPATIBLE_STATUS', `Customer ${customer.id} is ${customer.status}; a portal session is only for an ACTIVE customer.`, {
      status: customer.status,
    });
  }
  const token = newDashboardToken();
  const row = await tx.customerPortalSession.create({
    data: {
      id: newId('customerPortalSession', now.getTime()),
      accountId: scope.accountId,
      channelId: customer.channelId,
      customerId: customer.id,
      linkHash: hashDashboardToken(token),
      returnUrl: request.returnUrl ?? null,
      locale: request.locale ?? null,
      createdBy: request.createdBy,
      createdAt: now,
      linkExpiresAt: new Date(now.getTime() + PORTAL_LINK_TTL_MS),
    },
  });
  return {
    id: row.id,
    customer_id: row.customerId,
    url: portalLinkUrl(token),
    ...(row.returnUrl ? { return_url: row.returnUrl } : {}),
    ...(row.locale ? { locale: row.locale } : {}),
    expires_at: formatDateTime(row.linkExpiresAt),
    created_at: formatDateTime(row.createdAt),
  };
}
