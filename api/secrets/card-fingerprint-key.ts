import { randomBytes } from 'node:crypto';
import { openSecret, sealSecret } from '../../domain/secret-box';
import type { Database } from '../../prisma/client';

const KEY_BYTES = 32;

/** Bound as associated data: a sealed key copied onto another account does not open there. */
const purpose = (accountId: string) => `card-fingerprint-key:${accountId}`;

/**
 * The account's card fingerprint key (domain/card-fingerprint.ts), kept sealed under
 * SECRETS_KEY. An account gets one the first time it needs one; a key an older version left in
 * clear is sealed and its clear copy erased, the key itself unchanged so stored fingerprints
 * still compare. The write is conditional on what was read: of two requests racing to make or
 * seal the key, one wins and the other reads the winner's.
 */
export async function cardFingerprintKey(db: Database, accountId: string, secretsKey: Uint8Array): Promise<Buffer> {
  const account = await db.account.findUniqueOrThrow({
    where: { id: accountId },
    select: { sealedFingerprintKey: true, legacyFingerprintKey: true },
  });
  if (account.sealedFingerprintKey) {
    return Buffer.from(openSecret(secretsKey, purpose(accountId), account.sealedFingerprintKey), 'hex');
  }
  const key = account.legacyFingerprintKey ? Buffer.from(account.legacyFingerprintKey) : randomBytes(KEY_BYTES);
  const sealed = new Uint8Array(sealSecret(secretsKey, purpose(accountId), key.toString('hex')));
  const { count } = await db.account.updateMany({
    where: { id: accountId, sealedFingerprintKey: null, legacyFingerprintKey: account.legacyFingerprintKey },
    data: { sealedFingerprintKey: sealed, legacyFingerprintKey: null },
  });
  return count === 1 ? key : cardFingerprintKey(db, accountId, secretsKey);
}

/**
 * At the API's start: seals every key still in clear, so after the first start of this version
 * a database dump holds none, whether or not those accounts tokenize again. Returns how many.
 */
export async function sealClearFingerprintKeys(db: Database, secretsKey: Uint8Array): Promise<number> {
  const clear = await db.account.findMany({ where: { legacyFingerprintKey: { not: null } }, select: { id: true } });
  for (const { id } of clear) await cardFingerprintKey(db, id, secretsKey);
  return clear.length;
}
