-- CreateTable
CREATE TABLE "subscription_status_changes" (
    "id" TEXT NOT NULL,
    "subscription_id" TEXT NOT NULL,
    "from_status" TEXT,
    "to_status" TEXT NOT NULL,
    "cause" TEXT,
    "version" INTEGER NOT NULL,
    "occurred_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "subscription_status_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "subscription_status_changes_subscription_id_id_idx" ON "subscription_status_changes"("subscription_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "subscription_status_changes_subscription_id_version_key" ON "subscription_status_changes"("subscription_id", "version");

-- AddForeignKey
ALTER TABLE "subscription_status_changes" ADD CONSTRAINT "subscription_status_changes_subscription_id_fkey" FOREIGN KEY ("subscription_id") REFERENCES "subscriptions"("id") ON DELETE CASCADE ON UPDATE CASCADE;
