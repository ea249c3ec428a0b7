import { z } from 'zod';
import type { ProductRow } from '../../services/catalogue/products';
import { formatDateTime } from '../../domain/datetime';
import { dateTime } from '../common/schemas';

/**
 * Section 1 item 7: products, prices and coupons carry UUID-style ids (UUIDv7 here, so id order
 * is creation order). Read in lowercase, as they are issued.
 */
export const catalogueId = z
  .string()
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, { message: 'Expected a UUID.' })
  .transform((id) => id.toLowerCase())
  .meta({ description: 'A UUID (no prefix).' });


export const productObject = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    created_at: dateTime,
    updated_at: dateTime,
  })
  .meta({ id: 'Product' });

export type ProductObject = z.infer<typeof productObject>;

export function serializeProduct(row: ProductRow): ProductObject {
  return {
    id: row.id,
    name: row.name,
    ...(row.description === null ? {} : { description: row.description }),
    created_at: formatDateTime(row.createdAt),
    updated_at: formatDateTime(row.updatedAt),
  };
}

export { productSelect, type ProductRow } from '../../services/catalogue/products';
