-- AlterTable
ALTER TABLE "invoice_line_items" ADD COLUMN     "usage" JSONB;

-- AlterTable
ALTER TABLE "product_prices" ADD COLUMN     "meter_id" TEXT,
ADD COLUMN     "usage_model" JSONB;

-- CreateTable
CREATE TABLE "meters" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "event_name" TEXT NOT NULL,
    "aggregation" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "metadata" JSONB,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,
    "archived_at" TIMESTAMPTZ(6),

    CONSTRAINT "meters_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "meter_versions" (
    "meter_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "effective_from" TIMESTAMPTZ(6) NOT NULL,
    "property" TEXT,
    "filters" JSONB NOT NULL,
    "group_by" TEXT[],
    "created_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "meter_versions_pkey" PRIMARY KEY ("meter_id","version")
);

-- CreateTable
CREATE TABLE "usage_events" (
    "account_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "event_name" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "timestamp" TIMESTAMPTZ(6) NOT NULL,
    "properties" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "usage_events_pkey" PRIMARY KEY ("account_id","event_id")
);

-- CreateTable
CREATE TABLE "usage_rollups" (
    "meter_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "grain" TEXT NOT NULL,
    "bucket" TIMESTAMPTZ(6) NOT NULL,
    "group_key" TEXT NOT NULL,
    "event_count" BIGINT NOT NULL,
    "value_sum" DECIMAL(38,12) NOT NULL,
    "value_max" DECIMAL(38,12),
    "latest_at" TIMESTAMPTZ(6),
    "latest_event_id" TEXT,
    "latest_value" DECIMAL(38,12),

    CONSTRAINT "usage_rollups_pkey" PRIMARY KEY ("meter_id","customer_id","grain","bucket","group_key")
);

-- CreateTable
CREATE TABLE "usage_distinct_values" (
    "meter_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "bucket" TIMESTAMPTZ(6) NOT NULL,
    "group_key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "usage_distinct_values_pkey" PRIMARY KEY ("meter_id","customer_id","bucket","group_key","value")
);

-- CreateTable
CREATE TABLE "usage_billings" (
    "subscription_id" TEXT NOT NULL,
    "product_price_id" TEXT NOT NULL,
    "period_start" TIMESTAMPTZ(6) NOT NULL,
    "period_end" TIMESTAMPTZ(6) NOT NULL,
    "quantity" DECIMAL(38,12) NOT NULL,
    "amount" BIGINT NOT NULL,
    "invoice_id" TEXT NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "usage_billings_pkey" PRIMARY KEY ("subscription_id","product_price_id","period_start")
);

-- CreateIndex
CREATE INDEX "meters_account_id_id_idx" ON "meters"("account_id", "id");

-- CreateIndex
CREATE INDEX "meters_account_id_event_name_idx" ON "meters"("account_id", "event_name");

-- CreateIndex
CREATE INDEX "usage_events_customer_id_timestamp_idx" ON "usage_events"("customer_id", "timestamp");

-- AddForeignKey
ALTER TABLE "meter_versions" ADD CONSTRAINT "meter_versions_meter_id_fkey" FOREIGN KEY ("meter_id") REFERENCES "meters"("id") ON DELETE CASCADE ON UPDATE CASCADE;
