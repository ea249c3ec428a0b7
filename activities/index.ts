import type { Database } from '../prisma/client';
import { createChargeActivities } from './charge';
import { createDashboardSignInRecordActivities } from './dashboard-sign-in-records';
import { createIdempotencyRecordActivities } from './idempotency-records';
import { createInvoiceCollectionActivities } from './invoice-collection';
import { createMetricsRollupActivities } from './metrics-rollup';
import { createMonthlyStatementActivities } from './monthly-statements';
import { createPaymentInstrumentActivities } from './payment-instruments';
import { createPaymentSweepActivities } from './payment-sweep';
import { createReportExportActivities } from './report-export';
import { createRetentionActivities } from './retention';
import { createSecretRotationActivities } from './secret-rotation';
import { createSettlementActivities } from './settlements';
import { createStripeSettlementActivities } from './stripe-settlements';
import { createSubscriptionActivities } from './subscription';
import { createV1RestoreRequestActivities } from './v1-restore-requests';
import { createWebhookDeliveryActivities } from './webhook-delivery';

export interface ActivityDependencies {
  db: Database;
}

/** Every activity, built from its dependencies so tests hand in the real database. */
export function createActivities(deps: ActivityDependencies) {
  return {
    ...createSecretRotationActivities(deps),
    ...createIdempotencyRecordActivities(deps),
    ...createPaymentInstrumentActivities(deps),
    ...createChargeActivities(deps),
    ...createInvoiceCollectionActivities(deps),
    ...createPaymentSweepActivities(deps),
    ...createSubscriptionActivities(deps),
    ...createReportExportActivities(deps),
    ...createSettlementActivities(deps),
    ...createStripeSettlementActivities(deps),
    ...createMonthlyStatementActivities(deps),
    ...createWebhookDeliveryActivities(deps),
    ...createV1RestoreRequestActivities(deps),
    ...createDashboardSignInRecordActivities(deps),
    ...createRetentionActivities(deps),
    ...createMetricsRollupActivities(deps),
  };
}

export type Activities = ReturnType<typeof createActivities>;
