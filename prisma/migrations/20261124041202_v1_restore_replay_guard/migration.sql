-- CreateTable
CREATE TABLE "v1_restore_requests" (
    "account_id" TEXT NOT NULL,
    "body_hash" BYTEA NOT NULL,
    "seen_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "v1_restore_requests_pkey" PRIMARY KEY ("account_id","body_hash")
);

-- CreateIndex
CREATE INDEX "v1_restore_requests_seen_at_idx" ON "v1_restore_requests"("seen_at");
