-- DropIndex
DROP INDEX "invoices_account_id_status_idx";

-- DropIndex
DROP INDEX "payments_account_id_created_at_idx";

-- DropIndex
DROP INDEX "subscriptions_account_id_currency_status_idx";

-- CreateIndex
CREATE INDEX "invoices_account_id_status_currency_amount_due_idx" ON "invoices"("account_id", "status", "currency", "amount_due");

-- CreateIndex
CREATE INDEX "payments_account_id_currency_created_at_status_amount_decli_idx" ON "payments"("account_id", "currency", "created_at", "status", "amount", "decline_code");

-- CreateIndex
CREATE INDEX "subscriptions_account_id_currency_status_monthly_amount_idx" ON "subscriptions"("account_id", "currency", "status", "monthly_amount");
