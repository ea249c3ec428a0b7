import { z } from 'zod';
import { createProduct as createProductService } from '../../services/catalogue/products';
import { withIdempotency } from '../idempotency/with-idempotency';
import { authorizedProcedure, operation } from '../trpc';
import { productObject, serializeProduct } from './schemas';

export const createProductRequest = z.strictObject({
  name: z.string().trim().min(1).regex(/\S/).max(200),
  description: z.string().trim().min(1).regex(/\S/).max(1000).optional(),
});

export const createProduct = authorizedProcedure
  .meta(operation('products/create', { summary: 'Create a product', description: 'Account-wide: every channel can bill it.' }))
  .input(createProductRequest)
  .output(productObject)
  .mutation(({ ctx, input }) =>
    withIdempotency(ctx, 'products/create', input, (ctx) =>
      ctx.transaction(async (tx) => serializeProduct(await createProductService(ctx, tx, ctx.principal.accountId, input))),
    ),
  );
