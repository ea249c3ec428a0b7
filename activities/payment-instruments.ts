import type { ActivityDependencies } from '.';

export function createPaymentInstrumentActivities(_deps: ActivityDependencies) {
  return {};
}
