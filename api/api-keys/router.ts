import { router } from '../trpc';
import { createApiKey } from './create';
import { getApiKey } from './get';
import { listApiKeys } from './list';
import { rotateApiKey } from './rotate';

export const apiKeysRouter = router({
  create: createApiKey,
  list: listApiKeys,
  get: getApiKey,
  rotate: rotateApiKey,
});
