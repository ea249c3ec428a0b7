-- The attempts purge walks final deliveries in (updated_at, id) order from where its last batch
-- ended (services/retention/purge-webhook-delivery-attempts.ts). An index on (status, updated_at)
-- cannot give that order across the three final statuses.

-- DropIndex
DROP INDEX "webhook_deliveries_status_updated_at_idx";

-- CreateIndex
CREATE INDEX "webhook_deliveries_updated_at_id_idx" ON "webhook_deliveries"("updated_at", "id");
