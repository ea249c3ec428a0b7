import type { Client } from '@temporalio/client';
import { retentionSettings } from '../services/retention/settings';
import { ensureIdempotencyPurge, ensureMetricsRollup, ensurePaymentSweep, ensureRetention } from '../services/workflows/maintenance';
import { ensureSettlementSchedules } from '../services/workflows/settlement-schedules';
import { paymentSweepIntervalFromEnv } from './payment-sweep-interval';

/**
 * Starts the platform's housekeeping workflows unless they already run: every worker start
 * may call this, the fixed workflow ids keep one of each.
 */
export async function ensureMaintenanceWorkflows(client: Client, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  await ensureIdempotencyPurge(client);
  await ensurePaymentSweep(client, paymentSweepIntervalFromEnv(env));
  await ensureRetention(client, retentionSettings(env).intervalMinutes);
  await ensureMetricsRollup(client);
  await ensureSettlementSchedules(client);
}
