-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "v1_previous_secret_expires_at" TIMESTAMPTZ(6),
ADD COLUMN     "v1_previous_signing_secret" BYTEA;
