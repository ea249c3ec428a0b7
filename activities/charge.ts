import type { ActivityDependencies } from '.';

export function createChargeActivities(_deps: ActivityDependencies) {
  return {};
}
