import { router } from '../trpc';
import { createApiKey } from './create';
import { getApiKey } from './get';
import { listApiKeys } from './list';
import { revokeApiKey } from './revoke';
import { rotateApiKey } from './rotate';

export const apiKeysRouter = router({
  create: createApiKey,
  list: listApiKeys,
  get: getApiKey,
  rotate: rotateApiKey,
  revoke: revokeApiKey,
});
