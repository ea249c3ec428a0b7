import type { ActivityDependencies } from '.';
import { chargePayment, type ChargeInput, type ChargeSummary } from '../services/payments/charge';
import type { ProviderRegistry } from '../services/payments/providers/registry';
import { refusalsAsFailures } from './refusals';

export type { Attempt, ChargeInput, ChargeSummary } from '../services/payments/charge';

/** `providers` defaults to the sandbox registry; tests hand in wrappers that fail or count. */
export function createChargeActivities(deps: ActivityDependencies & { providers?: ProviderRegistry }) {
  return {
    /** docs/payments.md. Safe to retry at any point: it never charges twice. */
    chargePayment: (input: ChargeInput): Promise<ChargeSummary> => refusalsAsFailures(() => chargePayment(deps, input)),
  };
}
