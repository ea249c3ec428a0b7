import { antifraudListsRouter } from './antifraud-lists/router';
import { apiKeysRouter } from './api-keys/router';
import { couponsRouter } from './coupons/router';
import { creditNotesRouter } from './credit-notes/router';
import { customerBalanceTransactionsRouter } from './customer-balance-transactions/router';
import { customersRouter } from './customers/router';
import { customerPortalSessionsRouter } from './customer-portal-sessions/router';
import { invoicesRouter } from './invoices/router';
import { metersRouter } from './meters/router';
import { metricsRouter } from './metrics/router';
import { monthlyStatementsRouter } from './monthly-statements/router';
import { paymentInstrumentsRouter } from './payment-instruments/router';
import { productPricesRouter } from './product-prices/router';
import { productsRouter } from './products/router';
import { reportsRouter } from './reports/router';
import { routingConfigsRouter } from './routing-configs/router';
import { settlementsRouter } from './settlements/router';
import { subscriptionsRouter } from './subscriptions/router';
import { usageEventsRouter } from './usage-events/router';
import { router } from './trpc';
import { usageRouter } from './usage/router';
import { webhooksRouter } from './webhooks/router';

/** One router per resource group, keyed by the path segment of section 4.1. */
export const appRouter = router({
  'api-keys': apiKeysRouter,
  customers: customersRouter,
  'customer-portal-sessions': customerPortalSessionsRouter,
  'customer-balance-transactions': customerBalanceTransactionsRouter,
  'payment-instruments': paymentInstrumentsRouter,
  'routing-configs': routingConfigsRouter,
  'antifraud-lists': antifraudListsRouter,
  products: productsRouter,
  'product-prices': productPricesRouter,
  coupons: couponsRouter,
  meters: metersRouter,
  invoices: invoicesRouter,
  'credit-notes': creditNotesRouter,
  subscriptions: subscriptionsRouter,
  webhooks: webhooksRouter,
  reports: reportsRouter,
  settlements: settlementsRouter,
  'monthly-statements': monthlyStatementsRouter,
  usage: usageRouter,
  metrics: metricsRouter,
  'usage-events': usageEventsRouter,
});

export type AppRouter = typeof appRouter;
