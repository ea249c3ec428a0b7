import { Context, heartbeat, log } from '@temporalio/activity';
import type { ActivityDependencies } from '.';
import { sweepAbandonedPayments, type PaymentSweepInput, type PaymentSweepResult } from '../services/payments/sweep';
import type { ProviderRegistry } from '../services/payments/providers/registry';
import { refusalsAsFailures } from './refusals';

export type { PaymentSweepInput, PaymentSweepResult } from '../services/payments/sweep';

export function createPaymentSweepActivities(deps: ActivityDependencies & { providers?: ProviderRegistry }) {
  return {
    /** docs/invoice-payments.md, "The payment sweeper"; heartbeats before each item. */
    sweepAbandonedPayments: (input: PaymentSweepInput): Promise<PaymentSweepResult> =>
      refusalsAsFailures(() =>
        sweepAbandonedPayments(
          { ...deps, temporal: Context.current().client, now: () => new Date(), progress: (result) => heartbeat(result), warn: (message, details) => log.warn(message, details) },
          input,
        ),
      ),
  };
}
