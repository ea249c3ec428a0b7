-- DropIndex
DROP INDEX "v1_restore_requests_seen_at_idx";

-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "v1_secret_generation" INTEGER NOT NULL DEFAULT 0;

-- Rows past the old 24-hour window guarded nothing any more.
DELETE FROM "v1_restore_requests" WHERE "seen_at" <= now() - interval '24 hours';

-- AlterTable: the rest were seen before answers were recorded, so their answer is unknown, and they
-- keep refusing their bytes, now for as long as the current secret lives.
ALTER TABLE "v1_restore_requests" ADD COLUMN     "response_body" JSONB NOT NULL DEFAULT '{"error":{"code":"2.01","message":"This request was received before the platform recorded answers, so its answer is unknown, and it is not run again. Read the subscription with /v2/subscriptions/get."}}',
ADD COLUMN     "response_status" INTEGER NOT NULL DEFAULT 400,
ADD COLUMN     "secret_generation" INTEGER NOT NULL DEFAULT 0;

ALTER TABLE "v1_restore_requests" ALTER COLUMN "response_body" DROP DEFAULT,
ALTER COLUMN "response_status" DROP DEFAULT,
ALTER COLUMN "secret_generation" DROP DEFAULT;

-- CreateIndex
CREATE INDEX "v1_restore_requests_account_id_secret_generation_idx" ON "v1_restore_requests"("account_id", "secret_generation");
