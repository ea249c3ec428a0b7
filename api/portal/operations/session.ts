import { z } from 'zod';
import { csrfTokenOf } from '../../../domain/dashboard-tokens';
import { formatDateTime } from '../../../domain/datetime';
import { portalPaymentProvider } from '../../../services/portal/payment-provider';
import { endPortalSession } from '../../../services/portal/sessions';
import { readPortalSettings } from '../../../services/portal/settings';
import { switchablePrices } from '../../../services/portal/switchable-prices';
import { serializeProductPrice } from '../../product-prices/schemas';
import { portalOperation } from '../operation';
import { callV2 } from '../v2-call';

const empty = z.strictObject({});

export const sessionOperations = {
  /** Everything a page needs to start: who, what the account allows, how cards are collected, and the CSRF token. */
  'session/me': portalOperation(
    empty,
    async (ctx) => {
      const { actor } = ctx.session;
      const [customer, account, settings, provider] = await Promise.all([
        callV2(ctx.v2, 'customers.get', { id: actor.customerId }),
        ctx.db.account.findUnique({ where: { id: actor.accountId }, select: { name: true } }),
        readPortalSettings(ctx.db, actor.accountId),
        portalPaymentProvider(ctx.db, actor.accountId),
      ]);
      const prices = await switchablePrices(ctx.db, actor.accountId, settings.switchable_price_ids);
      return {
        body: {
          customer,
          account: { name: account?.name ?? '' },
          settings,
          switchable_prices: prices.map((row) => ({ ...serializeProductPrice(row), product_name: row.product.name })),
          locale: ctx.session.locale,
          return_url: ctx.session.returnUrl,
          payment_provider: provider,
          csrf_token: csrfTokenOf(ctx.sessionToken),
          session_expires_at: formatDateTime(ctx.session.expiresAt),
        },
      };
    },
    { csrf: false },
  ),
  'session/end': portalOperation(empty, async (ctx) => {
    await endPortalSession(ctx.db, ctx.session.actor.sessionId, ctx.now);
    return { body: { return_url: ctx.session.returnUrl }, clearCookie: true };
  }),
};
