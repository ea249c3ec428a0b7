import { newUuid } from '../../domain/ids';
import type { Prisma } from '../../prisma/client';

export const productSelect = { id: true, name: true, description: true, createdAt: true, updatedAt: true } as const;

export type ProductRow = Prisma.ProductGetPayload<{ select: typeof productSelect }>;

/** products/create in the caller's transaction. */
export function createProduct(deps: { now: () => Date }, tx: Prisma.TransactionClient, accountId: string, input: { name: string; description?: string }): Promise<ProductRow> {
  const now = deps.now();
  return tx.product.create({
    data: {
      id: newUuid(now.getTime()),
      accountId,
      name: input.name,
      description: input.description ?? null,
      createdAt: now,
      updatedAt: now,
    },
    select: productSelect,
  });
}
