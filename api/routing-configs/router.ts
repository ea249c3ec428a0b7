import { router } from '../trpc';
import { createRoutingConfig } from './create';
import { createRoutingConfigVersion } from './create-version';
import { getRoutingConfig } from './get';
import { getRoutingConfigVersion } from './get-version';
import { listRoutingConfigs } from './list';
import { publishRoutingConfigVersionOperation } from './publish-version';

export const routingConfigsRouter = router({
  get: getRoutingConfig,
  'get-version': getRoutingConfigVersion,
  list: listRoutingConfigs,
  create: createRoutingConfig,
  'create-version': createRoutingConfigVersion,
  'publish-version': publishRoutingConfigVersionOperation,
});
