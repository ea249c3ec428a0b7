import { antifraudListsRouter } from './antifraud-lists/router';
import { apiKeysRouter } from './api-keys/router';
import { customersRouter } from './customers/router';
import { paymentInstrumentsRouter } from './payment-instruments/router';
import { routingConfigsRouter } from './routing-configs/router';
import { router } from './trpc';

/** One router per resource group, keyed by the path segment of section 4.1. */
export const appRouter = router({
  'api-keys': apiKeysRouter,
  customers: customersRouter,
  'payment-instruments': paymentInstrumentsRouter,
  'routing-configs': routingConfigsRouter,
  'antifraud-lists': antifraudListsRouter,
});

export type AppRouter = typeof appRouter;
