-- The overview read every account's status changes of a period (an index on occurred_at alone)
-- and joined each to its subscription: each change now carries its account, filled from its
-- subscription, and the index starts with it (docs/metrics.md, issue 44).
DROP INDEX "subscription_status_changes_occurred_at_idx";

ALTER TABLE "subscription_status_changes" ADD COLUMN "account_id" TEXT;

UPDATE "subscription_status_changes" AS c SET "account_id" = s."account_id" FROM "subscriptions" AS s WHERE s."id" = c."subscription_id";

ALTER TABLE "subscription_status_changes" ALTER COLUMN "account_id" SET NOT NULL;

ALTER TABLE "subscriptions" ADD COLUMN "first_active_at" TIMESTAMPTZ(6);

-- When each subscription first became ACTIVE, as its history tells.
UPDATE "subscriptions" AS s SET "first_active_at" = f."first_active_at"
FROM (SELECT "subscription_id", min("occurred_at") AS "first_active_at" FROM "subscription_status_changes"
      WHERE "to_status" = 'ACTIVE' GROUP BY "subscription_id") AS f
WHERE f."subscription_id" = s."id";

-- A subscription written before the history existed has no first change (from no status): its
-- history starts with the status it then held, the from_status of its earliest recorded change,
-- or its status now when none was recorded. A subscription in ACTIVE, REDEMPTION or UNPAID then
-- had been ACTIVE: since it started (else since it was created). One CANCELLED or EXPIRED then
-- had been ACTIVE only if it had started. The time of that earlier ACTIVE is not known better.
UPDATE "subscriptions" AS s SET "first_active_at" = CASE
    WHEN l."status" IN ('ACTIVE', 'REDEMPTION', 'UNPAID') THEN COALESCE(s."started_at", s."created_at")
    WHEN l."status" IN ('CANCELLED', 'EXPIRED') AND s."started_at" IS NOT NULL THEN s."started_at"
    ELSE s."first_active_at" END
FROM (SELECT s2."id", COALESCE(e."from_status", s2."status") AS "status"
      FROM "subscriptions" AS s2
      LEFT JOIN LATERAL (SELECT "from_status", "version" FROM "subscription_status_changes" AS c
                         WHERE c."subscription_id" = s2."id" ORDER BY c."version" LIMIT 1) AS e ON true
      WHERE e."version" IS NULL OR e."from_status" IS NOT NULL) AS l
WHERE l."id" = s."id";

-- Their history then gets that first change, at their creation: with the version just before
-- the earliest recorded change, or their version now when none was recorded. Its id is a ULID
-- of the creation instant (as newId makes) whose random part is drawn from the subscription id.
INSERT INTO "subscription_status_changes" ("id", "account_id", "subscription_id", "from_status", "to_status", "cause", "version", "occurred_at")
SELECT 'ssch_'
       || (SELECT string_agg(substr('0123456789abcdefghjkmnpqrstvwxyz', ((ms >> (5 * (9 - i))) & 31)::int + 1, 1), '' ORDER BY i) FROM generate_series(0, 9) AS i)
       || (SELECT string_agg(substr('0123456789abcdefghjkmnpqrstvwxyz', (get_byte(decode(md5(s."id"), 'hex'), j) & 31) + 1, 1), '' ORDER BY j) FROM generate_series(0, 15) AS j),
       s."account_id", s."id", NULL, COALESCE(e."from_status", s."status"), NULL, COALESCE(e."version" - 1, s."version"), s."created_at"
FROM "subscriptions" AS s
CROSS JOIN LATERAL (SELECT floor(extract(epoch FROM s."created_at") * 1000)::bigint AS ms) AS t
LEFT JOIN LATERAL (SELECT "from_status", "version" FROM "subscription_status_changes" AS c
                   WHERE c."subscription_id" = s."id" ORDER BY c."version" LIMIT 1) AS e ON true
WHERE e."version" IS NULL OR e."from_status" IS NOT NULL;

CREATE INDEX "subscription_status_changes_account_id_occurred_at_to_statu_idx" ON "subscription_status_changes"("account_id", "occurred_at", "to_status", "from_status", "subscription_id", "version");

CREATE INDEX "subscriptions_account_id_currency_first_active_at_idx" ON "subscriptions"("account_id", "currency", "first_active_at");
