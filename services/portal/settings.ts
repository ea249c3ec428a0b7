import { ApiError, type Constraints } from '../../domain/errors';
import { portalSettingsOf, type PortalSettings } from '../../domain/portal/settings';
import type { Database } from '../../prisma/client';

/** What the account lets its customers do in the portal; an account never set up has the defaults. */
export async function readPortalSettings(db: Database, accountId: string): Promise<PortalSettings> {
  const account = await db.account.findUniqueOrThrow({ where: { id: accountId }, select: { portalSettings: true } });
  return portalSettingsOf(account.portalSettings);
}

/**
 * Replaces the account's portal settings (docs/portal.md, "Settings"). A switchable price must
 * be a RECURRING price of the account: a ONE_TIME price has no period to switch within, and a
 * USAGE line's price is locked once it has measured usage (docs/usage.md), so the portal could
 * offer a switch it would then refuse.
 */
export async function updatePortalSettings(db: Database, accountId: string, settings: PortalSettings, now: Date): Promise<PortalSettings> {
  refuseDuplicates(settings.switchable_price_ids);
  await requireRecurringPrices(db, accountId, settings.switchable_price_ids);
  const stored = {
    cancellation: settings.cancellation,
    quantity_changes: settings.quantity_changes,
    switchable_price_ids: [...settings.switchable_price_ids],
    billing_details_updates: settings.billing_details_updates,
  };
  await db.account.update({ where: { id: accountId }, data: { portalSettings: stored, updatedAt: now } });
  return stored;
}

function refuseDuplicates(ids: readonly string[]): void {
  const constraints: Constraints = {};
  ids.forEach((id, index) => {
    const first = ids.indexOf(id);
    if (first !== index) constraints[`switchable_price_ids[${index}]`] = { type: 'INVALID', message: `Listed twice: also switchable_price_ids[${first}].` };
  });
  if (Object.keys(constraints).length > 0) throw ApiError.validation(constraints);
}

async function requireRecurringPrices(db: Database, accountId: string, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const prices = await db.productPrice.findMany({ where: { accountId, id: { in: [...ids] } }, select: { id: true, billingType: true } });
  const billingTypes = new Map(prices.map((price) => [price.id, price.billingType]));
  ids.forEach((id, index) => {
    const field = `switchable_price_ids[${index}]`;
    const billingType = billingTypes.get(id);
    if (billingType === undefined) throw new ApiError('PRODUCT_PRICE_NOT_FOUND', `Product price ${id} does not exist.`, { field, product_price_id: id });
    if (billingType !== 'RECURRING') {
      throw new ApiError('PRICE_NOT_RECURRING', `Product price ${id} is ${billingType}: customers may switch only between RECURRING prices.`, {
        field,
        product_price_id: id,
        billing_type: billingType,
      });
    }
  });
}
