-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "portal_settings" JSONB;

-- AlterTable
ALTER TABLE "dashboard_audit_log" ADD COLUMN     "actor_type" TEXT NOT NULL DEFAULT 'USER';

-- CreateTable
CREATE TABLE "customer_portal_sessions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "link_hash" BYTEA NOT NULL,
    "return_url" TEXT,
    "locale" TEXT,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "link_expires_at" TIMESTAMPTZ(6) NOT NULL,
    "opened_at" TIMESTAMPTZ(6),
    "session_hash" BYTEA,
    "last_seen_at" TIMESTAMPTZ(6),
    "ended_at" TIMESTAMPTZ(6),
    "ip" TEXT,
    "user_agent" TEXT,

    CONSTRAINT "customer_portal_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "customer_portal_sessions_link_hash_key" ON "customer_portal_sessions"("link_hash");

-- CreateIndex
CREATE UNIQUE INDEX "customer_portal_sessions_session_hash_key" ON "customer_portal_sessions"("session_hash");

-- CreateIndex
CREATE INDEX "customer_portal_sessions_account_id_customer_id_id_idx" ON "customer_portal_sessions"("account_id", "customer_id", "id");
