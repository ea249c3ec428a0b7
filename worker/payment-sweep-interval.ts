import { PAYMENT_SWEEP_INTERVAL_MINUTES } from '../services/workflows/maintenance';

/**
 * How often the payment sweeper runs (docs/invoice-payments.md, "The payment sweeper"): every
 * 5 minutes unless `PAYMENT_SWEEP_INTERVAL_MINUTES` says otherwise. `npm run test:cluster` sets 1,
 * so a refund it abandons is finished within the run. Read when the sweep workflow is started:
 * one already running keeps the interval it was started with.
 */
export function paymentSweepIntervalFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PAYMENT_SWEEP_INTERVAL_MINUTES;
  if (raw === undefined || raw === '') return PAYMENT_SWEEP_INTERVAL_MINUTES;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`PAYMENT_SWEEP_INTERVAL_MINUTES must be a whole number of minutes, at least 1, not ${JSON.stringify(raw)}.`);
  return value;
}
