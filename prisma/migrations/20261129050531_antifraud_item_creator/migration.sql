-- AlterTable
ALTER TABLE "antifraud_list_items" ADD COLUMN     "created_by_api_key_id" TEXT,
ALTER COLUMN "created_by" DROP NOT NULL;

-- Section 2.5: created_by is the e-mail of a user. Items made by a key naming no user held the
-- id of the key there: it moves to the extension column. Items made through a dashboard session
-- held the id of the user: they get the e-mail of the user.
UPDATE "antifraud_list_items" SET "created_by_api_key_id" = "created_by", "created_by" = NULL
WHERE "created_by" LIKE 'akey\_%';

UPDATE "antifraud_list_items" i SET "created_by" = lower(u."email")
FROM "dashboard_users" u
WHERE i."created_by" = u."id";
