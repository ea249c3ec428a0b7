-- CreateTable
CREATE TABLE "accounts" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "default_channel_id" TEXT,
    "antifraud_enabled" BOOLEAN NOT NULL DEFAULT true,
    "fingerprint_key" BYTEA NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "channels" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_keys" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "permissions" TEXT[],
    "channel_ids" TEXT[],
    "rotate_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_key_secrets" (
    "id" TEXT NOT NULL,
    "api_key_id" TEXT NOT NULL,
    "lookup" TEXT NOT NULL,
    "hash" BYTEA NOT NULL,
    "expires_at" TIMESTAMPTZ(6),
    "revoked_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "api_key_secrets_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "idempotency_records" (
    "api_key_id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "operation" TEXT NOT NULL,
    "request_hash" TEXT NOT NULL,
    "response_status" INTEGER NOT NULL,
    "response_body" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("api_key_id","key")
);

-- CreateTable
CREATE TABLE "outbox_events" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "channel_id" TEXT,
    "event_type" TEXT NOT NULL,
    "occurred_at" TIMESTAMPTZ(6) NOT NULL,
    "data" JSONB NOT NULL,
    "dispatched_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "outbox_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customers" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "first_name" TEXT,
    "last_name" TEXT,
    "phone" TEXT,
    "merchant_customer_id" TEXT,
    "address" JSONB,
    "tax" JSONB NOT NULL,
    "status" TEXT NOT NULL,
    "configuration" JSONB,
    "metadata" JSONB,
    "business_details" JSONB,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payment_instruments" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "brand" TEXT NOT NULL,
    "last4" TEXT NOT NULL,
    "exp_month" INTEGER NOT NULL,
    "exp_year" INTEGER NOT NULL,
    "cardholder_name" TEXT,
    "fingerprint" TEXT NOT NULL,
    "sandbox_scenario" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "revoked_at" TIMESTAMPTZ(6),
    "expired_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "payment_instruments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "routing_configs" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "channel_id" TEXT,
    "name" TEXT NOT NULL,
    "published_version_id" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "routing_configs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "routing_config_versions" (
    "id" TEXT NOT NULL,
    "routing_config_id" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "route_tree" JSONB NOT NULL,
    "description" TEXT,
    "published_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "routing_config_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "payments" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "instrument_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "decline_code" TEXT,
    "decline_message" TEXT,
    "retryable" BOOLEAN NOT NULL DEFAULT false,
    "provider" TEXT,
    "provider_charge_id" TEXT,
    "fee" INTEGER,
    "refunded_amount" INTEGER NOT NULL DEFAULT 0,
    "attempts" JSONB NOT NULL,
    "reference" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "payments_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_provider_charges" (
    "id" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "fee" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "decline_code" TEXT,
    "created_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "sandbox_provider_charges_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "antifraud_lists" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "field" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "antifraud_lists_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "antifraud_list_items" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "list_id" TEXT NOT NULL,
    "field_value" TEXT NOT NULL,
    "expired_at" TIMESTAMPTZ(6),
    "description" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "antifraud_list_items_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "channels_account_id_idx" ON "channels"("account_id");

-- CreateIndex
CREATE INDEX "api_keys_account_id_id_idx" ON "api_keys"("account_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "api_key_secrets_lookup_key" ON "api_key_secrets"("lookup");

-- CreateIndex
CREATE INDEX "api_key_secrets_api_key_id_idx" ON "api_key_secrets"("api_key_id");

-- CreateIndex
CREATE INDEX "idempotency_records_expires_at_idx" ON "idempotency_records"("expires_at");

-- CreateIndex
CREATE INDEX "outbox_events_dispatched_at_id_idx" ON "outbox_events"("dispatched_at", "id");

-- CreateIndex
CREATE INDEX "outbox_events_account_id_id_idx" ON "outbox_events"("account_id", "id");

-- CreateIndex
CREATE INDEX "customers_account_id_id_idx" ON "customers"("account_id", "id");

-- CreateIndex
CREATE INDEX "customers_account_id_email_idx" ON "customers"("account_id", "email");

-- CreateIndex
CREATE INDEX "customers_account_id_merchant_customer_id_idx" ON "customers"("account_id", "merchant_customer_id");

-- CreateIndex
CREATE INDEX "payment_instruments_customer_id_id_idx" ON "payment_instruments"("customer_id", "id");

-- CreateIndex
CREATE INDEX "payment_instruments_account_id_fingerprint_idx" ON "payment_instruments"("account_id", "fingerprint");

-- CreateIndex
CREATE INDEX "routing_configs_account_id_id_idx" ON "routing_configs"("account_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "routing_config_versions_routing_config_id_version_key" ON "routing_config_versions"("routing_config_id", "version");

-- CreateIndex
CREATE INDEX "payments_instrument_id_idx" ON "payments"("instrument_id");

-- CreateIndex
CREATE UNIQUE INDEX "payments_account_id_idempotency_key_key" ON "payments"("account_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "sandbox_provider_charges_provider_idempotency_key_key" ON "sandbox_provider_charges"("provider", "idempotency_key");

-- CreateIndex
CREATE INDEX "antifraud_lists_account_id_id_idx" ON "antifraud_lists"("account_id", "id");

-- CreateIndex
CREATE INDEX "antifraud_list_items_list_id_id_idx" ON "antifraud_list_items"("list_id", "id");

-- CreateIndex
CREATE INDEX "antifraud_list_items_account_id_field_value_idx" ON "antifraud_list_items"("account_id", "field_value");

-- AddForeignKey
ALTER TABLE "channels" ADD CONSTRAINT "channels_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_key_secrets" ADD CONSTRAINT "api_key_secrets_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "api_keys"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "outbox_events" ADD CONSTRAINT "outbox_events_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "accounts"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "payment_instruments" ADD CONSTRAINT "payment_instruments_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "routing_config_versions" ADD CONSTRAINT "routing_config_versions_routing_config_id_fkey" FOREIGN KEY ("routing_config_id") REFERENCES "routing_configs"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "antifraud_list_items" ADD CONSTRAINT "antifraud_list_items_list_id_fkey" FOREIGN KEY ("list_id") REFERENCES "antifraud_lists"("id") ON DELETE CASCADE ON UPDATE CASCADE;
