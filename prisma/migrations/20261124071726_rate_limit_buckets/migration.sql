-- CreateTable
CREATE UNLOGGED TABLE "rate_limit_buckets" (
    "id" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "updated_at_ms" DOUBLE PRECISION NOT NULL,
    "allowed" BOOLEAN NOT NULL,

    CONSTRAINT "rate_limit_buckets_pkey" PRIMARY KEY ("id")
);
