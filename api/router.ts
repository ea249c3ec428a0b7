import { apiKeysRouter } from './api-keys/router';
import { router } from './trpc';

/** One router per resource group, keyed by the path segment of section 4.1. */
export const appRouter = router({
  'api-keys': apiKeysRouter,
});

export type AppRouter = typeof appRouter;
