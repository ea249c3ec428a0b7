-- AlterTable
ALTER TABLE "payment_instruments" ADD COLUMN     "provider" TEXT,
ADD COLUMN     "provider_customer_reference" TEXT,
ADD COLUMN     "provider_reference" TEXT,
ALTER COLUMN "sandbox_scenario" DROP NOT NULL;

-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "next_action_url" TEXT;

-- CreateTable
CREATE TABLE "stripe_connections" (
    "account_id" TEXT NOT NULL,
    "sealed_secret_key" BYTEA NOT NULL,
    "secret_key_last4" TEXT NOT NULL,
    "sealed_webhook_secret" BYTEA NOT NULL,
    "webhook_secret_last4" TEXT NOT NULL,
    "api_base" TEXT,
    "livemode" BOOLEAN NOT NULL,
    "connected_by" TEXT NOT NULL,
    "connected_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "stripe_connections_pkey" PRIMARY KEY ("account_id")
);

-- CreateTable
CREATE TABLE "stripe_customers" (
    "customer_id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "stripe_customer_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "stripe_customers_pkey" PRIMARY KEY ("customer_id")
);

-- CreateTable
CREATE TABLE "stripe_requests" (
    "account_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "object_id" TEXT,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "requested_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "stripe_requests_pkey" PRIMARY KEY ("account_id","idempotency_key")
);

-- CreateTable
CREATE TABLE "stripe_events" (
    "account_id" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "object_id" TEXT,
    "payload" JSONB NOT NULL,
    "received_at" TIMESTAMPTZ(6) NOT NULL,
    "applied_at" TIMESTAMPTZ(6),
    "outcome" TEXT,

    CONSTRAINT "stripe_events_pkey" PRIMARY KEY ("account_id","event_id")
);

-- CreateIndex
CREATE INDEX "stripe_requests_object_id_idx" ON "stripe_requests"("object_id");

-- CreateIndex
CREATE INDEX "stripe_events_applied_at_received_at_idx" ON "stripe_events"("applied_at", "received_at");
