-- CreateTable
CREATE TABLE "customer_balance_transactions" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "amount" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "description" TEXT,
    "invoice_id" TEXT,
    "credit_note_id" TEXT,
    "sequence" INTEGER NOT NULL,
    "ending_balance" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "customer_balance_transactions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customer_balances" (
    "customer_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "balance" INTEGER NOT NULL,
    "last_sequence" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "customer_balances_pkey" PRIMARY KEY ("customer_id","currency")
);

-- CreateIndex
CREATE INDEX "customer_balance_transactions_customer_id_id_idx" ON "customer_balance_transactions"("customer_id", "id");

-- CreateIndex
CREATE INDEX "customer_balance_transactions_account_id_id_idx" ON "customer_balance_transactions"("account_id", "id");

-- CreateIndex
CREATE INDEX "customer_balance_transactions_invoice_id_idx" ON "customer_balance_transactions"("invoice_id");

-- CreateIndex
CREATE UNIQUE INDEX "customer_balance_transactions_customer_id_currency_sequence_key" ON "customer_balance_transactions"("customer_id", "currency", "sequence");
