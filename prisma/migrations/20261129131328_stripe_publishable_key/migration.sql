-- AlterTable
ALTER TABLE "stripe_connections" ADD COLUMN     "publishable_key" TEXT;
