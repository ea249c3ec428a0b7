-- The card fingerprint key is sealed with SECRETS_KEY from now on. SQL cannot seal (the key
-- is not in the database), so existing keys stay in "fingerprint_key" until the API seals them
-- into "fingerprint_key_sealed" and clears them: at its start, or when the key is first used
-- (api/secrets/card-fingerprint-key.ts). The key itself is unchanged, so fingerprints already
-- stored still compare.
-- AlterTable
ALTER TABLE "accounts" ADD COLUMN     "fingerprint_key_sealed" BYTEA,
ALTER COLUMN "fingerprint_key" DROP NOT NULL;
