import { router } from '../trpc';
import { createCustomerPortalSession } from './create';

export const customerPortalSessionsRouter = router({
  create: createCustomerPortalSession,
});
