-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "v1_signing_secret" BYTEA;

-- AlterTable
ALTER TABLE "channels" ADD COLUMN     "legal_entity_id" TEXT;

-- CreateTable
CREATE TABLE "subscriptions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "payment_instrument_id" TEXT,
    "latest_invoice_id" TEXT,
    "description" TEXT,
    "merchant_reference" TEXT,
    "metadata" JSONB,
    "discounts" JSONB NOT NULL DEFAULT '[]',
    "trial_info" JSONB,
    "cancellation_info" JSONB,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "start_scheduled_at" TIMESTAMPTZ(6),
    "started_at" TIMESTAMPTZ(6),
    "next_billing_at" TIMESTAMPTZ(6),
    "anchor_at" TIMESTAMPTZ(6),
    "ends_at" TIMESTAMPTZ(6),
    "cycle_count" INTEGER NOT NULL DEFAULT 0,
    "version" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "subscriptions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "subscription_line_items" (
    "id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "product_id" TEXT NOT NULL,
    "product_price_id" TEXT NOT NULL,
    "product_name" TEXT NOT NULL,
    "product_description" TEXT,
    "billing_type" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "quantity" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(6),
    "period_start_at" TIMESTAMPTZ(6) NOT NULL,
    "period_end_at" TIMESTAMPTZ(6),
    "billing_period_value" INTEGER,
    "billing_period_unit" TEXT,
    "billed_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "subscription_line_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "channel_id" TEXT,
    "url" TEXT NOT NULL,
    "description" TEXT,
    "status" TEXT NOT NULL,
    "disabled_reason" TEXT,
    "event_types" TEXT[],
    "failing_since" TIMESTAMPTZ(6),
    "deleted_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_endpoint_secrets" (
    "id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "sealed" BYTEA NOT NULL,
    "expires_at" TIMESTAMPTZ(6),
    "revoked_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "webhook_endpoint_secrets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempt_count" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(6),
    "delivered_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_delivery_attempts" (
    "id" TEXT NOT NULL,
    "delivery_id" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "requested_at" TIMESTAMPTZ(6) NOT NULL,
    "response_status" INTEGER,
    "error" TEXT,
    "duration_ms" INTEGER NOT NULL,

    CONSTRAINT "webhook_delivery_attempts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "reports" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "channel_ids" TEXT[],
    "report_type" TEXT NOT NULL,
    "date_from" TIMESTAMPTZ(6) NOT NULL,
    "date_to" TIMESTAMPTZ(6) NOT NULL,
    "status" TEXT NOT NULL,
    "row_count" INTEGER,
    "byte_size" BIGINT,
    "storage_key" TEXT,
    "failure_reason" TEXT,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "reports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "legal_entities" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "country" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "legal_entities_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "settlements" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "legal_entity_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_settlement_id" TEXT,
    "currency" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "gross_amount" INTEGER NOT NULL,
    "refunded_amount" INTEGER NOT NULL,
    "fee_amount" INTEGER NOT NULL,
    "settlement_date" DATE NOT NULL,
    "period_from" DATE,
    "period_to" DATE,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "settlements_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "settlement_files" (
    "id" TEXT NOT NULL,
    "settlement_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "storage_key" TEXT,
    "failure_reason" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "settlement_files_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "monthly_statements" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "legal_entity_id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "provider_statement_id" TEXT,
    "currency" TEXT,
    "period_from" DATE,
    "period_to" DATE,
    "uploaded_at" TIMESTAMPTZ(6),
    "storage_key" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "monthly_statements_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "subscriptions_account_id_id_idx" ON "subscriptions"("account_id", "id");

-- CreateIndex
CREATE INDEX "subscriptions_customer_id_id_idx" ON "subscriptions"("customer_id", "id");

-- CreateIndex
CREATE INDEX "subscriptions_account_id_created_at_idx" ON "subscriptions"("account_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "subscription_line_items_subscription_id_position_key" ON "subscription_line_items"("subscription_id", "position");

-- CreateIndex
CREATE INDEX "webhook_endpoints_account_id_id_idx" ON "webhook_endpoints"("account_id", "id");

-- CreateIndex
CREATE INDEX "webhook_endpoints_account_id_url_idx" ON "webhook_endpoints"("account_id", "url");

-- CreateIndex
CREATE INDEX "webhook_endpoint_secrets_endpoint_id_idx" ON "webhook_endpoint_secrets"("endpoint_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_event_id_idx" ON "webhook_deliveries"("event_id");

-- CreateIndex
CREATE INDEX "webhook_deliveries_endpoint_id_id_idx" ON "webhook_deliveries"("endpoint_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_deliveries_endpoint_id_event_id_key" ON "webhook_deliveries"("endpoint_id", "event_id");

-- CreateIndex
CREATE UNIQUE INDEX "webhook_delivery_attempts_delivery_id_attempt_key" ON "webhook_delivery_attempts"("delivery_id", "attempt");

-- CreateIndex
CREATE INDEX "reports_account_id_id_idx" ON "reports"("account_id", "id");

-- CreateIndex
CREATE INDEX "legal_entities_account_id_id_idx" ON "legal_entities"("account_id", "id");

-- CreateIndex
CREATE INDEX "settlements_account_id_id_idx" ON "settlements"("account_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "settlements_provider_legal_entity_id_currency_settlement_da_key" ON "settlements"("provider", "legal_entity_id", "currency", "settlement_date");

-- CreateIndex
CREATE UNIQUE INDEX "settlement_files_settlement_id_type_key" ON "settlement_files"("settlement_id", "type");

-- CreateIndex
CREATE INDEX "monthly_statements_account_id_id_idx" ON "monthly_statements"("account_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "monthly_statements_provider_legal_entity_id_currency_period_key" ON "monthly_statements"("provider", "legal_entity_id", "currency", "period_from");

-- AddForeignKey
ALTER TABLE "subscription_line_items" ADD CONSTRAINT "subscription_line_items_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_endpoint_secrets" ADD CONSTRAINT "webhook_endpoint_secrets_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_delivery_attempts" ADD CONSTRAINT "webhook_delivery_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "settlement_files" ADD CONSTRAINT "settlement_files_settlement_id_fkey" FOREIGN KEY ("settlement_id") REFERENCES "settlements"("id") ON DELETE CASCADE ON UPDATE CASCADE;
