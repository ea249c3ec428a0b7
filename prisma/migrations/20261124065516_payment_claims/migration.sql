-- AlterTable
ALTER TABLE "payments" ADD COLUMN     "attempt_key" TEXT,
ADD COLUMN     "claimed_at" TIMESTAMPTZ(6);
