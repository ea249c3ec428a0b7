-- AlterTable
ALTER TABLE "subscriptions" ALTER COLUMN "monthly_amount" SET DATA TYPE DECIMAL(30,0);
