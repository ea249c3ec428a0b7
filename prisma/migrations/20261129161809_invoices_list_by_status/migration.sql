-- CreateIndex
CREATE INDEX "invoices_account_id_status_id_idx" ON "invoices"("account_id", "status", "id");
