-- CreateTable
CREATE TABLE "credit_notes" (
    "id" TEXT NOT NULL,
    "account_id" TEXT NOT NULL,
    "channel_id" TEXT NOT NULL,
    "invoice_id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "memo" TEXT,
    "origin" TEXT NOT NULL,
    "total_amount" INTEGER NOT NULL,
    "tax_amount" INTEGER NOT NULL,
    "pre_payment_amount" INTEGER NOT NULL,
    "refund_amount" INTEGER NOT NULL,
    "balance_credit_amount" INTEGER NOT NULL,
    "out_of_band_amount" INTEGER NOT NULL,
    "refund_id" TEXT,
    "balance_transaction_id" TEXT,
    "source_key" TEXT,
    "voided_at" TIMESTAMPTZ(6),
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "updated_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "credit_notes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credit_note_lines" (
    "id" TEXT NOT NULL,
    "credit_note_id" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "invoice_line_item_id" TEXT,
    "description" TEXT,
    "quantity" INTEGER,
    "taxable" INTEGER NOT NULL,
    "tax" INTEGER NOT NULL,
    "tax_mode" TEXT,
    "tax_rate" DECIMAL(7,4),
    "total" INTEGER NOT NULL,

    CONSTRAINT "credit_note_lines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "credit_note_sequences" (
    "account_id" TEXT NOT NULL,
    "last_number" INTEGER NOT NULL,

    CONSTRAINT "credit_note_sequences_pkey" PRIMARY KEY ("account_id")
);

-- CreateIndex
CREATE INDEX "credit_notes_account_id_id_idx" ON "credit_notes"("account_id", "id");

-- CreateIndex
CREATE INDEX "credit_notes_invoice_id_idx" ON "credit_notes"("invoice_id");

-- CreateIndex
CREATE INDEX "credit_notes_customer_id_id_idx" ON "credit_notes"("customer_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "credit_notes_account_id_number_key" ON "credit_notes"("account_id", "number");

-- CreateIndex
CREATE UNIQUE INDEX "credit_notes_account_id_source_key_key" ON "credit_notes"("account_id", "source_key");

-- CreateIndex
CREATE INDEX "credit_note_lines_invoice_line_item_id_idx" ON "credit_note_lines"("invoice_line_item_id");

-- CreateIndex
CREATE UNIQUE INDEX "credit_note_lines_credit_note_id_position_key" ON "credit_note_lines"("credit_note_id", "position");

-- AddForeignKey
ALTER TABLE "credit_note_lines" ADD CONSTRAINT "credit_note_lines_credit_note_id_fkey" FOREIGN KEY ("credit_note_id") REFERENCES "credit_notes"("id") ON DELETE CASCADE ON UPDATE CASCADE;
