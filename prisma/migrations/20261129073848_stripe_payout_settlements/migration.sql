-- DropIndex
DROP INDEX "settlements_provider_legal_entity_id_currency_settlement_da_key";

-- AlterTable
ALTER TABLE "settlements" ADD COLUMN     "adjustment_amount" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "settlement_lines" (
    "settlement_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "provider_transaction_id" TEXT NOT NULL,
    "provider_reference" TEXT NOT NULL,
    "provider_charge_id" TEXT,
    "transacted_at" TIMESTAMPTZ(6) NOT NULL,
    "currency" TEXT NOT NULL,
    "gross_amount" BIGINT NOT NULL,
    "refunded_amount" BIGINT NOT NULL,
    "fee_amount" BIGINT NOT NULL,
    "adjustment_amount" BIGINT NOT NULL,
    "payment_id" TEXT,
    "refund_id" TEXT,
    "invoice_id" TEXT,
    "channel_id" TEXT,
    "reconciliation" TEXT NOT NULL,

    CONSTRAINT "settlement_lines_pkey" PRIMARY KEY ("settlement_id","position")
);

-- CreateIndex
CREATE INDEX "payments_provider_charge_id_idx" ON "payments"("provider_charge_id");

-- CreateIndex
CREATE INDEX "refunds_provider_refund_id_idx" ON "refunds"("provider_refund_id");

-- CreateIndex
CREATE UNIQUE INDEX "settlements_account_id_provider_provider_settlement_id_key" ON "settlements"("account_id", "provider", "provider_settlement_id");

-- AddForeignKey
ALTER TABLE "settlement_lines" ADD CONSTRAINT "settlement_lines_settlement_id_fkey" FOREIGN KEY ("settlement_id") REFERENCES "settlements"("id") ON DELETE CASCADE ON UPDATE CASCADE;
