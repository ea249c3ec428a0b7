/**
 * Every permission a key can hold, `<resource>:<action>` as section 5.1 item 7 describes:
 * one per v2 operation. `customers/patch` is the same operation as `customers/update` and
 * needs `customers:update`. Beyond the spec's index: `payment-instruments/tokenize` (sandbox
 * cards) and `payment-instruments/attach` (cards a provider holds), the routing-configs operations that create and publish versions, `invoices/refund`,
 * `invoices/preview`, the credit notes (docs/credit-notes.md), the catalogue (products, product-prices, coupons), and the webhooks delivery log
 * (`webhooks/list-deliveries`, `webhooks/redeliver`), `api-keys/revoke` and `webhooks/send-test-event` (issue 19's dashboard). Published in docs/permissions.md; a test keeps both in step
 * with the router.
 */
export const PERMISSIONS = [
  'api-keys:create',
  'api-keys:list',
  'api-keys:get',
  'api-keys:rotate',
  'api-keys:revoke',
  'invoices:create',
  'invoices:update',
  'invoices:finalize',
  'invoices:void',
  'invoices:delete',
  'invoices:get',
  'invoices:list',
  'invoices:pay',
  'invoices:refund',
  'invoices:preview',
  'credit-notes:preview',
  'credit-notes:create',
  'credit-notes:get',
  'credit-notes:list',
  'credit-notes:void',
  'products:create',
  'products:get',
  'products:list',
  'product-prices:create',
  'product-prices:get',
  'product-prices:list',
  'coupons:create',
  'coupons:get',
  'coupons:list',
  'subscriptions:create',
  'subscriptions:get',
  'subscriptions:list',
  'subscriptions:cancel',
  'subscriptions:delete-cancellation',
  'subscriptions:update',
  'customers:create',
  'customers:get',
  'customers:list',
  'customers:update',
  'customer-balance-transactions:create',
  'customer-balance-transactions:list',
  'payment-instruments:get',
  'payment-instruments:list',
  'payment-instruments:revoke',
  'payment-instruments:tokenize',
  'payment-instruments:attach',
  'antifraud-lists:create',
  'antifraud-lists:update',
  'antifraud-lists:list',
  'antifraud-lists:get',
  'antifraud-lists:create-item',
  'antifraud-lists:delete-item',
  'antifraud-lists:list-item',
  'monthly-statements:list',
  'settlements:get',
  'settlements:list',
  'reports:create',
  'reports:download',
  'reports:list',
  'routing-configs:get',
  'routing-configs:get-version',
  'routing-configs:list',
  'routing-configs:create',
  'routing-configs:create-version',
  'routing-configs:publish-version',
  'webhooks:create',
  'webhooks:list',
  'webhooks:get',
  'webhooks:patch',
  'webhooks:delete',
  'webhooks:rotate-key',
  'webhooks:list-deliveries',
  'webhooks:redeliver',
  'webhooks:send-test-event',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

const known: ReadonlySet<string> = new Set(PERMISSIONS);

export function isPermission(value: string): value is Permission {
  return known.has(value);
}
