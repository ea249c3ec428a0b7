-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "invoice_id" TEXT;

-- CreateTable
CREATE TABLE "products" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "products_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "product_prices" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "product_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "billing_type" TEXT NOT NULL,
    "billing_period_value" INTEGER,
    "billing_period_unit" TEXT,
    "tax_category_id" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "product_prices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "coupons" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "code" TEXT NOT NULL,
    "calculation_type" TEXT NOT NULL,
    "calculation_value" DECIMAL(14,4) NOT NULL,
    "currency" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "coupons_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoices" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "total_amount" INTEGER NOT NULL,
    "amount_due" INTEGER NOT NULL,
    "amount_paid" INTEGER NOT NULL DEFAULT 0,
    "amount_refunded" INTEGER NOT NULL DEFAULT 0,
    "amount_details" JSONB NOT NULL,
    "discounts" JSONB NOT NULL,
    "customer_snapshot" JSONB,
    "subscription_id" TEXT,
    "billing_reason" TEXT NOT NULL,
    "collection_method" TEXT NOT NULL,
    "payment_instrument_id" TEXT,
    "due_at" TIMESTAMPTZ(6),
    "notes" TEXT,
    "merchant_reference" TEXT,
    "metadata" JSONB,
    "payment_in_progress_id" TEXT,
    "finalized_at" TIMESTAMPTZ(6),
    "paid_at" TIMESTAMPTZ(6),
    "voided_at" TIMESTAMPTZ(6),
    "deleted_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "invoices_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invoice_line_items" (
    "id" TEXT NOT NULL,
    "invoice_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "product_price_id" TEXT,
    "description" TEXT,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "quantity" INTEGER NOT NULL,
    "tax_category_id" TEXT,
    "tax_mode" TEXT,
    "tax_rate" DECIMAL(7,4),
    "subtotal" INTEGER NOT NULL,
    "discount" INTEGER NOT NULL,
    "taxable" INTEGER NOT NULL,
    "tax" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "invoice_line_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refunds" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "invoice_id" TEXT NOT NULL,
    "payment_id" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "reason" TEXT,
    "status" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_refund_id" TEXT,
    "idempotency_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "refunds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_provider_refunds" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "charge_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "sandbox_provider_refunds_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "products_account_id_id_idx" ON "products"("account_id", "id");

-- CreateIndex
CREATE INDEX "product_prices_account_id_id_idx" ON "product_prices"("account_id", "id");

-- CreateIndex
CREATE INDEX "coupons_account_id_id_idx" ON "coupons"("account_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "coupons_account_id_code_key" ON "coupons"("account_id", "code");

-- CreateIndex
CREATE INDEX "invoices_account_id_id_idx" ON "invoices"("account_id", "id");

-- CreateIndex
CREATE INDEX "invoices_customer_id_id_idx" ON "invoices"("customer_id", "id");

-- CreateIndex
CREATE INDEX "invoices_account_id_created_at_idx" ON "invoices"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "invoice_line_items_invoice_id_position_key" ON "invoice_line_items"("invoice_id", "position");

-- CreateIndex
CREATE INDEX "refunds_invoice_id_idx" ON "refunds"("invoice_id");

-- CreateIndex
CREATE UNIQUE INDEX "refunds_account_id_idempotency_key_key" ON "refunds"("account_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "sandbox_provider_refunds_charge_id_idx" ON "sandbox_provider_refunds"("charge_id");

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_provider_refunds_provider_idempotency_key_key" ON "sandbox_provider_refunds"("provider", "idempotency_key");

-- CreateIndex
CREATE INDEX "payments_invoice_id_idx" ON "payments"("invoice_id");

-- AddForeignKey
ALTER TABLE "product_prices" ADD CONSTRAINT "product_prices_product_id_fkey" FOREIGN KEY ("product_id") REFERENCES "products"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "invoice_line_items" ADD CONSTRAINT "invoice_line_items_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_invoice_id_fkey" FOREIGN KEY ("invoice_id") REFERENCES "invoices"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
