import type { ActivityDependencies } from '.';

export function createInvoiceCollectionActivities(_deps: ActivityDependencies) {
  return {};
}
