import { z } from 'zod';
import { newUuid } from '../../domain/ids';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { productObject, productSelect, serializeProduct } from './schemas';

export const createProductRequest = z.strictObject({
  name: z.string().trim().min(1).max(200),
  description: z.string().trim().min(1).max(1000).optional(),
});

export const createProduct = authorizedProcedure
  .meta(operation('products/create', { summary: 'Create a product', description: 'Account-wide: every channel can bill it.' }))
  .input(createProductRequest)
  .output(productObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'products/create', input, (ctx) =>
      ctx.transaction(async (tx) => {
        const now = ctx.now();
        const row = await tx.product.create({
          data: {
            id: newUuid(now.getTime()),
            accountId: ctx.principal.accountId,
            name: input.name,
            description: input.description ?? null,
            createdAt: now,
            updatedAt: now,
          },
          select: productSelect,
        });
        return serializeProduct(row);
      }),
    ),
  );
