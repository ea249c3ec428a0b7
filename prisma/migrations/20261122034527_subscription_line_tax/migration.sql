-- AlterTable
ALTER TABLE "subscription_line_items" ADD COLUMN     "tax_category_id" TEXT,
ADD COLUMN     "tax_mode" TEXT,
ADD COLUMN     "tax_rate" DECIMAL(7,4);
