import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ID_PREFIXES } from './ids';

/**
 * An API key secret is `asec_<lookup><random>`: the 16-character lookup finds the stored
 * record through a unique index, and the SHA-256 of the whole secret is compared in
 * constant time. 256 random bits make a slow password hash unnecessary.
 */
const LOOKUP_LENGTH = 16;
const PREFIX = ID_PREFIXES.apiKeySecret;

export interface IssuedSecret {
  secret: string;
  lookup: string;
  hash: Uint8Array<ArrayBuffer>;
}

export function issueSecret(): IssuedSecret {
  const lookup = randomBytes(12).toString('base64url');
  const secret = `${PREFIX}${lookup}${randomBytes(32).toString('base64url')}`;
  return { secret, lookup, hash: hashSecret(secret) };
}

export function hashSecret(secret: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(secret, 'utf8').digest());
}

/** The lookup part of a presented secret, or null when it cannot be one of ours. */
export function lookupOf(presented: string): string | null {
  if (!presented.startsWith(PREFIX) || presented.length !== PREFIX.length + LOOKUP_LENGTH + 43) return null;
  return presented.slice(PREFIX.length, PREFIX.length + LOOKUP_LENGTH);
}

export function secretMatches(presented: string, storedHash: Uint8Array): boolean {
  const presentedHash = hashSecret(presented);
  return storedHash.length === presentedHash.length && timingSafeEqual(presentedHash, storedHash);
}
