import type { Client } from '@temporalio/client';
import { ensureIdempotencyPurge, ensurePaymentSweep } from '../services/workflows/maintenance';
import { ensureSettlementSchedules } from '../services/workflows/settlement-schedules';

/**
 * Starts the platform's housekeeping workflows unless they already run: every worker start
 * may call this, the fixed workflow ids keep one of each.
 */
export async function ensureMaintenanceWorkflows(client: Client): Promise<void> {
  await ensureIdempotencyPurge(client);
  await ensurePaymentSweep(client);
  await ensureSettlementSchedules(client);
}
