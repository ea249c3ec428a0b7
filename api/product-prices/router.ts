import { router } from '../trpc';
import { createProductPrice } from './create';
import { getProductPrice } from './get';
import { listProductPrices } from './list';

export const productPricesRouter = router({ create: createProductPrice, get: getProductPrice, list: listProductPrices });
