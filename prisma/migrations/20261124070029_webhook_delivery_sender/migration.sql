-- Deliveries dispatched before the sender existed keep their delivery workflows: the default is WORKFLOW.
-- AlterTable
ALTER TABLE "webhook_deliveries" ADD COLUMN     "handler" TEXT NOT NULL DEFAULT 'WORKFLOW',
ADD COLUMN     "lease_until" TIMESTAMPTZ(6);

-- CreateIndex
CREATE INDEX "webhook_deliveries_status_handler_endpoint_id_next_attempt__idx" ON "webhook_deliveries"("status", "handler", "endpoint_id", "next_attempt_at");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_lease_until_idx" ON "webhook_deliveries"("endpoint_id", "lease_until");
