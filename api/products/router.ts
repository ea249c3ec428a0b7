import { router } from '../trpc';
import { createProduct } from './create';
import { getProduct } from './get';
import { listProducts } from './list';

export const productsRouter = router({ create: createProduct, get: getProduct, list: listProducts });
