-- The script runs as one transaction (scripts/db/engine-adapter.ts): writers wait until the
-- triggers and the days below are in place, so no row is counted twice or missed.
LOCK TABLE payments, refunds IN SHARE ROW EXCLUSIVE MODE;

-- CreateTable
CREATE TABLE "metrics_payment_days" (
    "account_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "status" TEXT NOT NULL,
    "decline_code" TEXT NOT NULL,
    "payment_count" BIGINT NOT NULL,
    "amount" BIGINT NOT NULL,

    CONSTRAINT "metrics_payment_days_pkey" PRIMARY KEY ("account_id","currency","day","status","decline_code")
);

-- CreateTable
CREATE TABLE "metrics_payment_day_changes" (
    "id" BIGSERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "status" TEXT NOT NULL,
    "decline_code" TEXT NOT NULL,
    "payment_count" INTEGER NOT NULL,
    "amount" BIGINT NOT NULL,

    CONSTRAINT "metrics_payment_day_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "metrics_refund_days" (
    "account_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "status" TEXT NOT NULL,
    "refund_count" BIGINT NOT NULL,
    "amount" BIGINT NOT NULL,

    CONSTRAINT "metrics_refund_days_pkey" PRIMARY KEY ("account_id","currency","day","status")
);

-- CreateTable
CREATE TABLE "metrics_refund_day_changes" (
    "id" BIGSERIAL NOT NULL,
    "account_id" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "status" TEXT NOT NULL,
    "refund_count" INTEGER NOT NULL,
    "amount" BIGINT NOT NULL,

    CONSTRAINT "metrics_refund_day_changes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "metrics_payment_day_changes_account_id_currency_day_idx" ON "metrics_payment_day_changes"("account_id", "currency", "day");

-- CreateIndex
CREATE INDEX "metrics_refund_day_changes_account_id_currency_day_idx" ON "metrics_refund_day_changes"("account_id", "currency", "day");

-- The roll-up is a GROUP BY of payments and refunds kept by triggers (docs/metrics.md, "Daily
-- roll-up"): every write that moves a row between groups adds −1 for the group it left and +1
-- for the one it joined, in its own transaction, so a figure read from the days, the changes not
-- yet folded and the raw rows of the period's partial days is always what a scan would give.
-- No business rule lives here: which statuses a figure counts is the reader's.
CREATE FUNCTION metrics_payment_day_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO metrics_payment_day_changes (account_id, currency, day, status, decline_code, payment_count, amount)
    VALUES (OLD.account_id, OLD.currency, (OLD.created_at AT TIME ZONE 'UTC')::date, OLD.status, COALESCE(OLD.decline_code, ''), -1, -OLD.amount);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO metrics_payment_day_changes (account_id, currency, day, status, decline_code, payment_count, amount)
    VALUES (NEW.account_id, NEW.currency, (NEW.created_at AT TIME ZONE 'UTC')::date, NEW.status, COALESCE(NEW.decline_code, ''), 1, NEW.amount);
  END IF;
  -- A refund is in its payment's currency: gone with the payment, or moved with its currency.
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.currency IS DISTINCT FROM NEW.currency) THEN
    INSERT INTO metrics_refund_day_changes (account_id, currency, day, status, refund_count, amount)
    SELECT r.account_id, OLD.currency, (r.created_at AT TIME ZONE 'UTC')::date, r.status, -1, -r.amount FROM refunds r WHERE r.payment_id = OLD.id;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.currency IS DISTINCT FROM NEW.currency THEN
    INSERT INTO metrics_refund_day_changes (account_id, currency, day, status, refund_count, amount)
    SELECT r.account_id, NEW.currency, (r.created_at AT TIME ZONE 'UTC')::date, r.status, 1, r.amount FROM refunds r WHERE r.payment_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER metrics_payment_days_insert_delete AFTER INSERT OR DELETE ON payments
  FOR EACH ROW EXECUTE FUNCTION metrics_payment_day_change();

-- An update that leaves the grouped columns alone (attempts, provider ids, updated_at) runs nothing.
CREATE TRIGGER metrics_payment_days_update AFTER UPDATE ON payments
  FOR EACH ROW
  WHEN ((OLD.account_id, OLD.currency, OLD.created_at, OLD.status, OLD.decline_code, OLD.amount)
        IS DISTINCT FROM (NEW.account_id, NEW.currency, NEW.created_at, NEW.status, NEW.decline_code, NEW.amount))
  EXECUTE FUNCTION metrics_payment_day_change();

-- A refund is in its payment's currency.
CREATE FUNCTION metrics_refund_day_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    INSERT INTO metrics_refund_day_changes (account_id, currency, day, status, refund_count, amount)
    SELECT OLD.account_id, p.currency, (OLD.created_at AT TIME ZONE 'UTC')::date, OLD.status, -1, -OLD.amount FROM payments p WHERE p.id = OLD.payment_id;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO metrics_refund_day_changes (account_id, currency, day, status, refund_count, amount)
    SELECT NEW.account_id, p.currency, (NEW.created_at AT TIME ZONE 'UTC')::date, NEW.status, 1, NEW.amount FROM payments p WHERE p.id = NEW.payment_id;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER metrics_refund_days_insert_delete AFTER INSERT OR DELETE ON refunds
  FOR EACH ROW EXECUTE FUNCTION metrics_refund_day_change();

CREATE TRIGGER metrics_refund_days_update AFTER UPDATE ON refunds
  FOR EACH ROW
  WHEN ((OLD.account_id, OLD.payment_id, OLD.created_at, OLD.status, OLD.amount)
        IS DISTINCT FROM (NEW.account_id, NEW.payment_id, NEW.created_at, NEW.status, NEW.amount))
  EXECUTE FUNCTION metrics_refund_day_change();

-- The rows written before the triggers.
INSERT INTO metrics_payment_days (account_id, currency, day, status, decline_code, payment_count, amount)
SELECT account_id, currency, (created_at AT TIME ZONE 'UTC')::date, status, COALESCE(decline_code, ''), count(*), sum(amount)
FROM payments GROUP BY 1, 2, 3, 4, 5;

INSERT INTO metrics_refund_days (account_id, currency, day, status, refund_count, amount)
SELECT r.account_id, p.currency, (r.created_at AT TIME ZONE 'UTC')::date, r.status, count(*), sum(r.amount)
FROM refunds r JOIN payments p ON p.id = r.payment_id GROUP BY 1, 2, 3, 4;
