import { useQueries } from '@tanstack/react-query';
import type { Product, ProductPrice } from '../api/types';
import { v2 } from '../api/v2';
import { money } from './format';

/** `every month`, `every 3 months`; a price without a period bills once. */
function period(price: ProductPrice): string {
  const config = price.billing_period_config;
  if (!config) return 'once';
  const unit = config.unit.toLowerCase();
  return config.value === 1 ? `every ${unit}` : `every ${config.value} ${unit}s`;
}

/** `Pro · 19.00 EUR every month`: what a merchant recognises a price by. */
export function priceLabel(price: ProductPrice, productName: string | undefined): string {
  return `${productName ?? price.product_id} · ${money(price.amount, price.currency)} ${period(price)}`;
}

/** The names of the products, each read once with products/get: a price carries only its product's id. */
export function useProductNames(productIds: readonly string[]): Map<string, string> {
  const unique = [...new Set(productIds)];
  const products = useQueries({
    queries: unique.map((id) => ({
      queryKey: ['products', id],
      queryFn: () => v2<Product>('/v2/products/get', { id }),
      staleTime: Infinity,
    })),
  });
  return new Map(products.flatMap((product) => (product.data ? [[product.data.id, product.data.name] as const] : [])));
}

/** The prices named, read with product-prices/get (cached as the customer page caches them), in the order given. */
export function usePrices(ids: readonly string[]): { prices: (ProductPrice | undefined)[]; error: unknown } {
  const prices = useQueries({
    queries: ids.map((id) => ({
      queryKey: ['product-prices', id],
      queryFn: () => v2<ProductPrice>('/v2/product-prices/get', { id }),
      staleTime: Infinity,
    })),
  });
  return { prices: prices.map((price) => price.data), error: prices.find((price) => price.error)?.error };
}
