-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "revoked_at" TIMESTAMPTZ(6);
