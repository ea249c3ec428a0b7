-- AlterTable
ALTER TABLE "subscriptions" ADD COLUMN     "monthly_amount" INTEGER;

-- CreateIndex
CREATE INDEX "credit_notes_account_id_created_at_idx" ON "credit_notes"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "invoices_account_id_status_idx" ON "invoices"("account_id", "status");

-- CreateIndex
CREATE INDEX "payments_account_id_created_at_idx" ON "payments"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "refunds_account_id_created_at_idx" ON "refunds"("account_id", "created_at");

-- CreateIndex
CREATE INDEX "subscription_status_changes_occurred_at_idx" ON "subscription_status_changes"("occurred_at");

-- CreateIndex
CREATE INDEX "subscriptions_account_id_currency_status_idx" ON "subscriptions"("account_id", "currency", "status");
