-- AlterTable
ALTER TABLE "invoices" ADD COLUMN     "collection_attempts_settled" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "invoices_payment_in_progress_id_idx" ON "invoices"("payment_in_progress_id");

-- CreateIndex
CREATE INDEX "refunds_status_created_at_idx" ON "refunds"("status", "created_at");
