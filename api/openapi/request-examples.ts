import { antifraudListRequestExamples } from '../antifraud-lists/request-examples';
import { apiKeyRequestExamples } from '../api-keys/request-examples';
import { couponRequestExamples } from '../coupons/request-examples';
import { creditNoteRequestExamples } from '../credit-notes/request-examples';
import { customerBalanceTransactionRequestExamples } from '../customer-balance-transactions/request-examples';
import { customerRequestExamples } from '../customers/request-examples';
import { customerPortalSessionRequestExamples } from '../customer-portal-sessions/request-examples';
import { invoiceRequestExamples } from '../invoices/request-examples';
import { meterRequestExamples } from '../meters/request-examples';
import { monthlyStatementRequestExamples } from '../monthly-statements/request-examples';
import { paymentInstrumentRequestExamples } from '../payment-instruments/request-examples';
import { productPriceRequestExamples } from '../product-prices/request-examples';
import { productRequestExamples } from '../products/request-examples';
import { reportRequestExamples } from '../reports/request-examples';
import { routingConfigRequestExamples } from '../routing-configs/request-examples';
import { metricsRequestExamples } from '../metrics/request-examples';
import { settlementRequestExamples } from '../settlements/request-examples';
import { subscriptionRequestExamples } from '../subscriptions/request-examples';
import { usageEventRequestExamples } from '../usage-events/request-examples';
import { usageRequestExamples } from '../usage/request-examples';
import { webhookRequestExamples } from '../webhooks/request-examples';
import type { Operations, ResourceRequestExamples } from './operation-types';

const EXAMPLES: { [R in keyof Operations]: ResourceRequestExamples<R> } = {
  'api-keys': apiKeyRequestExamples,
  customers: customerRequestExamples,
  'customer-portal-sessions': customerPortalSessionRequestExamples,
  'customer-balance-transactions': customerBalanceTransactionRequestExamples,
  'payment-instruments': paymentInstrumentRequestExamples,
  'routing-configs': routingConfigRequestExamples,
  'antifraud-lists': antifraudListRequestExamples,
  products: productRequestExamples,
  'product-prices': productPriceRequestExamples,
  coupons: couponRequestExamples,
  meters: meterRequestExamples,
  invoices: invoiceRequestExamples,
  'credit-notes': creditNoteRequestExamples,
  subscriptions: subscriptionRequestExamples,
  webhooks: webhookRequestExamples,
  reports: reportRequestExamples,
  settlements: settlementRequestExamples,
  metrics: metricsRequestExamples,
  'monthly-statements': monthlyStatementRequestExamples,
  usage: usageRequestExamples,
  'usage-events': usageEventRequestExamples,
};

/** The request example of the operation routed as `resources.action` (api/http/procedure-table.ts). */
export function requestExample(dotted: string): unknown {
  const [resources, action] = dotted.split('.') as [string, string];
  return (EXAMPLES as Record<string, Record<string, unknown> | undefined>)[resources]?.[action];
}
