import { router } from '../trpc';
import { createCustomer } from './create';
import { getCustomer } from './get';
import { listCustomers } from './list';
import { patchCustomer } from './patch';
import { updateCustomer } from './update';

export const customersRouter = router({
  create: createCustomer,
  get: getCustomer,
  list: listCustomers,
  update: updateCustomer,
  patch: patchCustomer,
});
