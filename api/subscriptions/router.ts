import { router } from '../trpc';
import { cancelSubscription } from './cancel';
import { createSubscription } from './create';
import { deleteSubscriptionCancellation } from './delete-cancellation';
import { getSubscription } from './get';
import { listSubscriptions } from './list';
import { listSubscriptionStatusHistory } from './list-status-history';
import { updateSubscription } from './update';

export const subscriptionsRouter = router({
  create: createSubscription,
  get: getSubscription,
  list: listSubscriptions,
  'list-status-history': listSubscriptionStatusHistory,
  cancel: cancelSubscription,
  'delete-cancellation': deleteSubscriptionCancellation,
  update: updateSubscription,
});
