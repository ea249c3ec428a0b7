-- DropIndex
DROP INDEX "dashboard_users_email_key";

-- AlterTable
ALTER TABLE "api_keys" ADD COLUMN     "issued_by_user_id" TEXT;

-- AlterTable
ALTER TABLE "dashboard_invitations" ADD COLUMN     "revoked_at" TIMESTAMPTZ(6);

-- CreateTable
CREATE TABLE "dashboard_password_resets" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "token_hash" BYTEA NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(6) NOT NULL,
    "expires_at" TIMESTAMPTZ(6) NOT NULL,
    "used_at" TIMESTAMPTZ(6),

    CONSTRAINT "dashboard_password_resets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_password_resets_token_hash_key" ON "dashboard_password_resets"("token_hash");

-- CreateIndex
CREATE INDEX "dashboard_password_resets_user_id_idx" ON "dashboard_password_resets"("user_id");

-- CreateIndex
CREATE INDEX "api_keys_issued_by_user_id_idx" ON "api_keys"("issued_by_user_id");

-- CreateIndex
CREATE INDEX "dashboard_invitations_invited_by_idx" ON "dashboard_invitations"("invited_by");

-- CreateIndex
CREATE INDEX "dashboard_users_email_idx" ON "dashboard_users"("email");

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_users_account_id_email_key" ON "dashboard_users"("account_id", "email");

-- AddForeignKey
ALTER TABLE "dashboard_password_resets" ADD CONSTRAINT "dashboard_password_resets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "dashboard_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
