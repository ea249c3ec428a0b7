-- CreateIndex
CREATE INDEX "monthly_statements_period_from_id_idx" ON "monthly_statements"("period_from", "id");

-- CreateIndex
CREATE INDEX "settlements_settlement_date_id_idx" ON "settlements"("settlement_date", "id");
