import type { Database } from '../../prisma/client';
import { productPriceSelect } from '../catalogue/product-prices';

/** The prices of `ids` (the account's switchable_price_ids) with their product's name, in the settings' order. */
export async function switchablePrices(db: Database, accountId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  const rows = await db.productPrice.findMany({ where: { accountId, id: { in: [...ids] } }, select: productPriceSelect });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
}
