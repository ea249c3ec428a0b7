-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "proration_credit" TEXT NOT NULL DEFAULT 'CUSTOMER_BALANCE';
