-- CreateTable
CREATE TABLE "dashboard_known_clients" (
    "user_id" TEXT NOT NULL,
    "client_key" TEXT NOT NULL,
    "last_signed_in_at" TIMESTAMPTZ(6) NOT NULL,

    CONSTRAINT "dashboard_known_clients_pkey" PRIMARY KEY ("user_id","client_key")
);

-- AddForeignKey
ALTER TABLE "dashboard_known_clients" ADD CONSTRAINT "dashboard_known_clients_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "dashboard_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
